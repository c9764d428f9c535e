if a:
	b
        c
  d
\
x = (1,
[2
def f(): pass
