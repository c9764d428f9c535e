x = (1, 2
y = 3
def f(:
    z = $
    return 1
class A
    pass
if x:
pass
x = yield 3
a := 3
match x:
    case 1:
        pass
async def g():
    await x
f(x for x in y, 1)
f(a=1, b)
1 = x
f() += 1
s = 'abc
t = 0777
  bad = 1
q = 1
 r = 2
u = 1 +
print "hi"
def h(a=1, b):
    pass
x = f"{x!z}"
x = f"{"
lambda: (yield)
