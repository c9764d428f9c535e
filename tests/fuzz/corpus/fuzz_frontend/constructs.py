x = f"a{b!r:>{w}}c{{d}}" "e" f'{x = }' f"{a['k']:.3f}"
y = -x**2 + a*b - c // d @ e
z = not a == b < c and d or e if f else g
t = a[1:2, ::2, :, None, ..., 0]
u = [i * j for i in range(3) if i for j in k]
v = {k: v for k, v in d.items()}, {**d, 'a': 1}, {1, 2}, (x for x in y)
w = lambda a, b=1, *c, d, **e: a
a = b = c, d
a, *b = c
def f(a, b: int = 3, *args, c, d=4, **kw) -> int:
    """doc"""
    return a, b
@dec(1)
class C(B, metaclass=M):
    pass
from . import x
from ..a.b import (c as d, e,)
import a.b as c, d
for i, j in x:
    break
else:
    continue
while x: pass
if a:
    pass
elif b:
    pass
else:
    pass
try:
    pass
except (A, B) as e:
    raise X from e
finally:
    del a[0], b
with open(f) as g, h:
    global q
assert x, "m"
x += 1; x @= 2
x: int = 5
print(a, *b, k=1, **c)
super(Model, self).__init__()
a is not b; a not in b
2 ** -1
a if b else c if d else e
