// Parser tests: precedence and every construct through ast::dump, located error messages, recovery (several
// errors per file), nesting limits on adversarial input, and a clean parse of every corpus and example file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/ast.h"
#include "frontend/parser.h"

namespace tz {
namespace {

struct Parsed {
  std::string dump;
  std::vector<std::string> errors;  // "line:col: message"
};

Parsed parse_text(const std::string& text) {
  SourceFile file{"t.py", text};
  ast::AstArena arena;
  Diagnostics diags;
  ast::Module module = parse(file, arena, diags);
  Parsed out;
  out.dump = ast::dump(module);
  for (const Diagnostic& d : diags.errors()) {
    out.errors.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message);
  }
  return out;
}

// The dump of a file that must parse without errors.
std::string dump_of(const std::string& text) {
  Parsed p = parse_text(text);
  EXPECT_TRUE(p.errors.empty()) << "unexpected errors for:\n" << text << "\nfirst: " << p.errors.front();
  return p.dump;
}

// The dump of one expression, parsed as `x = <expr>`.
std::string expr(const std::string& text) {
  std::string d = dump_of("x = " + text + "\n");
  const std::string prefix = "(= x ";
  if (d.rfind(prefix, 0) != 0 || d.size() < prefix.size() + 2) return "bad dump: " + d;
  return d.substr(prefix.size(), d.size() - prefix.size() - 2);  // drop the prefix and ")\n"
}

std::vector<std::string> errors_of(const std::string& text) { return parse_text(text).errors; }

// ---- precedence, through the dump ----

TEST(ParserPrecedence, Arithmetic) {
  EXPECT_EQ(expr("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(expr("a * b + c"), "(+ (* a b) c)");
  EXPECT_EQ(expr("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(expr("a / b // c % d @ e"), "(@ (% (// (/ a b) c) d) e)");
  EXPECT_EQ(expr("(a + b) * c"), "(* (+ a b) c)");
}

TEST(ParserPrecedence, PowerAndUnary) {
  EXPECT_EQ(expr("-x**2"), "(- (** x 2))");
  EXPECT_EQ(expr("a**b**c"), "(** a (** b c))");
  EXPECT_EQ(expr("2**-1"), "(** 2 (- 1))");
  EXPECT_EQ(expr("-a * b"), "(* (- a) b)");
  EXPECT_EQ(expr("~a + +b"), "(+ (~ a) (+ b))");
  EXPECT_EQ(expr("- - a"), "(- (- a))");
  EXPECT_EQ(expr("a.b**c.d"), "(** a.b c.d)");
}

TEST(ParserPrecedence, BitwiseAndShifts) {
  EXPECT_EQ(expr("a | b ^ c & d << e + f"), "(| a (^ b (& c (<< d (+ e f)))))");
  EXPECT_EQ(expr("a >> b << c"), "(<< (>> a b) c)");
  EXPECT_EQ(expr("a & b | c"), "(| (& a b) c)");
}

TEST(ParserPrecedence, ComparisonsAndBooleans) {
  EXPECT_EQ(expr("a < b"), "(< a b)");
  EXPECT_EQ(expr("a < b <= c != d"), "(compare a < b <= c != d)");
  EXPECT_EQ(expr("a | b == c"), "(== (| a b) c)");
  EXPECT_EQ(expr("a is not b"), "(is not a b)");
  EXPECT_EQ(expr("a not in b"), "(not in a b)");
  EXPECT_EQ(expr("a in b is c"), "(compare a in b is c)");
  EXPECT_EQ(expr("not a == b"), "(not (== a b))");
  EXPECT_EQ(expr("not a and b"), "(and (not a) b)");
  EXPECT_EQ(expr("a or b and c"), "(or a (and b c))");
  EXPECT_EQ(expr("a or b or c"), "(or a b c)");
  EXPECT_EQ(expr("a and b and c or d"), "(or (and a b c) d)");
  EXPECT_EQ(expr("(a or b) or c"), "(or (or a b) c)");
  EXPECT_EQ(expr("not not a"), "(not (not a))");
}

TEST(ParserPrecedence, ConditionalAndLambda) {
  EXPECT_EQ(expr("a if b else c"), "(ifexp b a c)");
  EXPECT_EQ(expr("a if b else c if d else e"), "(ifexp b a (ifexp d c e))");
  EXPECT_EQ(expr("a or b if c and d else e"), "(ifexp (and c d) (or a b) e)");
  EXPECT_EQ(expr("lambda: 0"), "(lambda (params) 0)");
  EXPECT_EQ(expr("lambda a, b=1, *c, d, e=2, **f: a + b"),
            "(lambda (params a b=1 *c d e=2 **f) (+ a b))");
  EXPECT_EQ(expr("lambda x: x if x else -x"), "(lambda (params x) (ifexp x x (- x)))");
}

// ---- expressions ----

TEST(ParserExpr, Literals) {
  EXPECT_EQ(expr("1"), "1");
  EXPECT_EQ(expr("1.5"), "1.5");
  EXPECT_EQ(expr("1."), "1.0");
  EXPECT_EQ(expr("1e-3"), "0.001");
  EXPECT_EQ(expr("0x10"), "16");
  EXPECT_EQ(expr("'a' \"b\" '''c'''"), "\"abc\"");
  EXPECT_EQ(expr("b'a' b'\\x00'"), "b\"a\\x00\"");
  EXPECT_EQ(expr("True"), "True");
  EXPECT_EQ(expr("None"), "None");
  EXPECT_EQ(expr("..."), "...");
}

TEST(ParserExpr, Displays) {
  EXPECT_EQ(expr("()"), "(tuple)");
  EXPECT_EQ(expr("(1,)"), "(tuple 1)");
  EXPECT_EQ(expr("(1, 2,)"), "(tuple 1 2)");
  EXPECT_EQ(expr("1, 2"), "(tuple 1 2)");
  EXPECT_EQ(expr("1,"), "(tuple 1)");
  EXPECT_EQ(expr("(1)"), "1");
  EXPECT_EQ(expr("[]"), "(list)");
  EXPECT_EQ(expr("[1, *a, 2,]"), "(list 1 (* a) 2)");
  EXPECT_EQ(expr("{}"), "(dict)");
  EXPECT_EQ(expr("{'a': 1, **d, 2: b}"), "(dict (: \"a\" 1) (** d) (: 2 b))");
  EXPECT_EQ(expr("{**d}"), "(dict (** d))");
  EXPECT_EQ(expr("{1, 2}"), "(set 1 2)");
  EXPECT_EQ(expr("{*a, b}"), "(set (* a) b)");
  EXPECT_EQ(expr("*a, b"), "(tuple (* a) b)");
}

TEST(ParserExpr, Comprehensions) {
  EXPECT_EQ(expr("[x for x in y]"), "(listcomp x (for x y))");
  EXPECT_EQ(expr("[x * y for x in a if x if x > 1 for y in b]"),
            "(listcomp (* x y) (for x a (if x) (if (> x 1))) (for y b))");
  EXPECT_EQ(expr("{k: v for k, v in d.items()}"), "(dictcomp k v (for (tuple k v) (call d.items)))");
  EXPECT_EQ(expr("{x for x in y}"), "(setcomp x (for x y))");
  EXPECT_EQ(expr("(x for x in y)"), "(genexp x (for x y))");
  EXPECT_EQ(expr("sum(x for x in y)"), "(call sum (genexp x (for x y)))");
  EXPECT_EQ(expr("[a if c else b for (a, b) in z]"), "(listcomp (ifexp c a b) (for (tuple a b) z))");
  EXPECT_EQ(expr("[x for x in a or b if not x]"), "(listcomp x (for x (or a b) (if (not x))))");
}

TEST(ParserExpr, CallsAttributesSubscripts) {
  EXPECT_EQ(expr("f()"), "(call f)");
  EXPECT_EQ(expr("f(a, b=1, *c, **d)"), "(call f a b=1 (* c) (** d))");
  EXPECT_EQ(expr("f(a,)"), "(call f a)");
  EXPECT_EQ(expr("self.fc.weight"), "self.fc.weight");
  EXPECT_EQ(expr("f(x).shape[0]"), "(sub (. (call f x) shape) 0)");
  EXPECT_EQ(expr("super().__init__()"), "(call (. (call super) __init__))");
  EXPECT_EQ(expr("super(Model, self).__init__()"), "(call (. (call super Model self) __init__))");
  EXPECT_EQ(expr("a.b(c)[d](e)"), "(call (sub (call a.b c) d) e)");
}

TEST(ParserExpr, Slices) {
  EXPECT_EQ(expr("a[1:2]"), "(sub a (slice 1 2 ()))");
  EXPECT_EQ(expr("a[:, None]"), "(sub a (tuple (slice () () ()) None))");
  EXPECT_EQ(expr("a[..., 0]"), "(sub a (tuple ... 0))");
  EXPECT_EQ(expr("a[::2]"), "(sub a (slice () () 2))");
  EXPECT_EQ(expr("a[::-1, 1:]"), "(sub a (tuple (slice () () (- 1)) (slice 1 () ())))");
  EXPECT_EQ(expr("a[i, j, k]"), "(sub a (tuple i j k))");
  EXPECT_EQ(expr("a[i,]"), "(sub a (tuple i))");
  EXPECT_EQ(expr("a[x:y:z]"), "(sub a (slice x y z))");
  EXPECT_EQ(expr("a[f(1):]"), "(sub a (slice (call f 1) () ()))");
}

TEST(ParserExpr, FStrings) {
  EXPECT_EQ(expr("f'a{b}c'"), "(fstr \"a\" (fmt b) \"c\")");
  EXPECT_EQ(expr("f'{x!r:>{w}}'"), "(fstr (fmt x !r (fstr \">\" (fmt w))))");
  EXPECT_EQ(expr("'a' f'{b}' 'c'"), "(fstr \"a\" (fmt b) \"c\")");
  EXPECT_EQ(expr("f'{x = }'"), "(fstr \"x = \" (fmt x !r))");
  EXPECT_EQ(expr("f'{d[\"k\"]:.3f}'"), "(fstr (fmt (sub d \"k\") (fstr \".3f\")))");
  EXPECT_EQ(expr("f'{{literal}}'"), "(fstr \"{literal}\")");
}

// ---- statements ----

TEST(ParserStmt, Imports) {
  EXPECT_EQ(dump_of("import torch\nimport torch.nn as nn, math\n"),
            "(import torch)\n(import (as torch.nn nn) math)\n");
  EXPECT_EQ(dump_of("from a.b import (x as y, z,)\nfrom . import x\nfrom ..m import *\n"),
            "(from a.b (as x y) z)\n(from . x)\n(from ..m *)\n");
  EXPECT_EQ(dump_of("import torch.nn.functional as F\n"), "(import (as torch.nn.functional F))\n");
}

TEST(ParserStmt, ClassesAndDefs) {
  EXPECT_EQ(dump_of("class Model(nn.Module, metaclass=M):\n"
                    "    \"\"\"Doc.\"\"\"\n"
                    "    def __init__(self, a, b: int = 3, *args, c, d=4, **kw) -> None:\n"
                    "        super().__init__()\n"),
            "(class Model (bases nn.Module metaclass=M)\n"
            "  (expr \"Doc.\")\n"
            "  (def __init__ (params self a b:int=3 *args c d=4 **kw) (-> None)\n"
            "    (expr (call (. (call super) __init__)))))\n");
  EXPECT_EQ(dump_of("def f(a, *, b, **c): pass\n"), "(def f (params a * b **c)\n  (pass))\n");
  EXPECT_EQ(dump_of("def f(a, /, b): pass\n"), "(def f (params a b)\n  (pass))\n");
  EXPECT_EQ(dump_of("class A: pass\nclass B(): pass\n"), "(class A (bases)\n  (pass))\n(class B (bases)\n  (pass))\n");
  EXPECT_EQ(dump_of("@torch.no_grad()\n@staticmethod\ndef f(): return 1\n"),
            "(def f (params) (decorators (call torch.no_grad) staticmethod)\n  (return 1))\n");
}

TEST(ParserStmt, Assignments) {
  EXPECT_EQ(dump_of("a = b = c\n"), "(= a b c)\n");
  EXPECT_EQ(dump_of("a, b = b, a\n"), "(= (tuple a b) (tuple b a))\n");
  EXPECT_EQ(dump_of("(a, b), [c, *d] = x\n"), "(= (tuple (tuple a b) (list c (* d))) x)\n");
  EXPECT_EQ(dump_of("self.w[0] = 1\n"), "(= (sub self.w 0) 1)\n");
  EXPECT_EQ(dump_of("x += 1\nx //= 2\nx **= 3\nx @= y\nx >>= 1\n"),
            "(+= x 1)\n(//= x 2)\n(**= x 3)\n(@= x y)\n(>>= x 1)\n");
  EXPECT_EQ(dump_of("x: int = 5\ny: List[int]\n"), "(ann x int 5)\n(ann y (sub List int))\n");
  EXPECT_EQ(dump_of("a = 1; b = 2;\n"), "(= a 1)\n(= b 2)\n");
}

TEST(ParserStmt, ControlFlow) {
  EXPECT_EQ(dump_of("for i, j in x, y:\n  break\nelse:\n  continue\n"),
            "(for (tuple i j) (tuple x y)\n  (break)\n  (else\n    (continue)))\n");
  EXPECT_EQ(dump_of("while x: x -= 1\nelse: pass\n"), "(while x\n  (-= x 1)\n  (else\n    (pass)))\n");
  EXPECT_EQ(dump_of("if a:\n  x\nelif b:\n  y\nelse:\n  z\n"),
            "(if a\n  (expr x)\n  (else\n    (if b\n      (expr y)\n      (else\n        (expr z)))))\n");
  EXPECT_EQ(dump_of("def f():\n  return\n"), "(def f (params)\n  (return))\n");
  EXPECT_EQ(dump_of("def f():\n  return a, *b\n"), "(def f (params)\n  (return (tuple a (* b))))\n");
}

TEST(ParserStmt, SimpleStatements) {
  EXPECT_EQ(dump_of("assert x, 'msg'\nassert y\n"), "(assert x \"msg\")\n(assert y)\n");
  EXPECT_EQ(dump_of("raise\nraise E('m')\nraise E from e\n"),
            "(raise)\n(raise (call E \"m\"))\n(raise E (from e))\n");
  EXPECT_EQ(dump_of("del a, b[0], c.d\n"), "(del a (sub b 0) c.d)\n");
  EXPECT_EQ(dump_of("def f():\n  global a, b\n  nonlocal c\n"), "(def f (params)\n  (global a b)\n  (nonlocal c))\n");
  EXPECT_EQ(dump_of("pass\n"), "(pass)\n");
}

TEST(ParserStmt, WithAndTry) {
  EXPECT_EQ(dump_of("with open(p) as f, lock:\n  pass\n"),
            "(with (item (call open p) f) (item lock)\n  (pass))\n");
  EXPECT_EQ(dump_of("with (a as b, c as d):\n  pass\n"), "(with (item a b) (item c d)\n  (pass))\n");
  EXPECT_EQ(dump_of("with (a):\n  pass\n"), "(with (item a)\n  (pass))\n");
  EXPECT_EQ(dump_of("try:\n  x\nexcept (A, B) as e:\n  y\nexcept:\n  z\nelse:\n  w\nfinally:\n  v\n"),
            "(try\n  (expr x)\n  (except (tuple A B) e\n    (expr y))\n  (except ()\n    (expr z))\n"
            "  (else\n    (expr w))\n  (finally\n    (expr v)))\n");
}

TEST(ParserStmt, DocstringsAreExprStatements) {
  EXPECT_EQ(dump_of("\"\"\"Module doc.\"\"\"\ndef f():\n  'doc'\n  return 1\n"),
            "(expr \"Module doc.\")\n(def f (params)\n  (expr \"doc\")\n  (return 1))\n");
}

TEST(ParserStmt, ByteOrderMarkIsSkipped) {
  EXPECT_EQ(dump_of("\xEF\xBB\xBFimport torch\n"), "(import torch)\n");
}

TEST(ParserStmt, SoftKeywordsAreNames) {
  EXPECT_EQ(dump_of("match = 1\nmatch(x)\ncase = match.y\ntype = 3\n"),
            "(= match 1)\n(expr (call match x))\n(= case match.y)\n(= type 3)\n");
}

TEST(ParserStmt, Locations) {
  SourceFile file{"t.py", "class A:\n    def f(self, x):\n        return x + 1\n"};
  ast::AstArena arena;
  Diagnostics diags;
  ast::Module m = parse(file, arena, diags);
  ASSERT_FALSE(diags.has_errors());
  ASSERT_EQ(m.body.size(), 1u);
  const ast::Stmt* def = m.body[0]->body[0];
  EXPECT_EQ(def->loc.line, 2);
  EXPECT_EQ(def->loc.col, 5);
  EXPECT_EQ(def->params[1].loc.col, 17);
  const ast::Stmt* ret = def->body[0];
  EXPECT_EQ(ret->loc.line, 3);
  EXPECT_EQ(ret->loc.col, 9);
  EXPECT_EQ(ret->value->loc.col, 16);       // the BinOp starts at its first token
  EXPECT_EQ(ret->value->rhs->loc.col, 20);  // 1
  EXPECT_EQ(m.file, &file);
}

// ---- errors ----

TEST(ParserErrors, UnclosedBracket) {
  EXPECT_EQ(errors_of("x = f(a,\n  b\ny = 2\n"),
            std::vector<std::string>{"3:1: expected ')' to close '(' opened at 1:6"});
  EXPECT_EQ(errors_of("x = [1, 2\n"), std::vector<std::string>{"1:10: expected ']' to close '[' opened at 1:5"});
  EXPECT_EQ(errors_of("x = (1 +\ndef f():\n  return 1\n"),
            std::vector<std::string>{"1:5: '(' was never closed"});
}

TEST(ParserErrors, UnexpectedTokens) {
  EXPECT_EQ(errors_of("y = ]\n"), std::vector<std::string>{"1:5: unexpected token ']'"});
  EXPECT_EQ(errors_of("x = 1 2\n"), std::vector<std::string>{"1:7: unexpected token '2'"});
  EXPECT_EQ(errors_of("print 'hi'\n"), std::vector<std::string>{"1:7: unexpected string literal"});
  EXPECT_EQ(errors_of("u = 1 +\n"), std::vector<std::string>{"1:8: unexpected end of line"});
  EXPECT_EQ(errors_of("x = a + not b\n"),
            std::vector<std::string>{"1:9: invalid syntax: 'not' must be parenthesized here"});
}

TEST(ParserErrors, Blocks) {
  EXPECT_EQ(errors_of("class A\n  pass\n"), std::vector<std::string>{"1:8: expected ':'"});
  EXPECT_EQ(errors_of("if x:\npass\n"),
            std::vector<std::string>{"2:1: expected an indented block after 'if' statement on line 1"});
  EXPECT_EQ(errors_of("x = 1\n  y = 2\n"), std::vector<std::string>{"2:3: unexpected indent"});
  EXPECT_EQ(errors_of("if a:\n    b\n  c\n"),
            std::vector<std::string>{"3:3: unindent does not match any outer indentation level"});
  EXPECT_EQ(errors_of("try:\n  pass\nx = 1\n"), std::vector<std::string>{"3:1: expected 'except' or 'finally' block"});
  EXPECT_EQ(errors_of("@dec\nx = 1\n"), std::vector<std::string>{"2:1: expected 'def' or 'class' after decorator"});
}

TEST(ParserErrors, UnsupportedConstructsAreNamed) {
  EXPECT_EQ(errors_of("def f():\n  yield 1\n"), std::vector<std::string>{"2:3: 'yield' is not supported"});
  EXPECT_EQ(errors_of("x = (yield)\n"), std::vector<std::string>{"1:6: 'yield' is not supported"});
  EXPECT_EQ(errors_of("if (n := 10) > 5: pass\n"),
            std::vector<std::string>{"1:7: the walrus operator ':=' is not supported"});
  EXPECT_EQ(errors_of("match x:\n  case 1:\n    pass\ny = 1\n"),
            std::vector<std::string>{"1:1: 'match' statement is not supported"});
  EXPECT_EQ(errors_of("match (x):\n  case 1:\n    pass\n"),
            std::vector<std::string>{"1:1: 'match' statement is not supported"});
  EXPECT_EQ(errors_of("async def f():\n  await x\n"), std::vector<std::string>{"1:1: 'async' is not supported"});
  EXPECT_EQ(errors_of("x = await y\n"), std::vector<std::string>{"1:5: 'await' is not supported"});
  EXPECT_EQ(errors_of("x = 1j\n"), std::vector<std::string>{"1:5: complex literals are not supported"});
  EXPECT_EQ(errors_of("try:\n  pass\nexcept* E:\n  pass\n"),
            std::vector<std::string>{"3:7: 'except*' is not supported"});
}

TEST(ParserErrors, BadTargetsAndArguments) {
  EXPECT_EQ(errors_of("1 = x\n"), std::vector<std::string>{"1:1: cannot assign to literal"});
  EXPECT_EQ(errors_of("f() = x\n"), std::vector<std::string>{"1:1: cannot assign to function call"});
  EXPECT_EQ(errors_of("a, b + 1 = x\n"), std::vector<std::string>{"1:4: cannot assign to expression"});
  EXPECT_EQ(errors_of("for f() in x: pass\n"), std::vector<std::string>{"1:5: cannot assign to function call"});
  EXPECT_EQ(errors_of("del f()\n"), std::vector<std::string>{"1:5: cannot delete function call"});
  EXPECT_EQ(errors_of("f() += 1\n"),
            std::vector<std::string>{"1:1: 'function call' is an illegal expression for augmented assignment"});
  EXPECT_EQ(errors_of("a, b: int\n"),
            std::vector<std::string>{"1:1: only a single target (not a tuple) can be annotated"});
  EXPECT_EQ(errors_of("f(a=1, b)\n"), std::vector<std::string>{"1:8: positional argument follows keyword argument"});
  EXPECT_EQ(errors_of("f(x for x in y, 1)\n"),
            std::vector<std::string>{"1:3: generator expression must be parenthesized"});
  EXPECT_EQ(errors_of("f(a.b=1)\n"),
            std::vector<std::string>{"1:6: expected a parameter name before '=' (an expression cannot be a keyword)"});
  EXPECT_EQ(errors_of("def f(a=1, b): pass\n"),
            std::vector<std::string>{"1:12: non-default argument follows default argument"});
  EXPECT_EQ(errors_of("def f(a, a): pass\n"),
            std::vector<std::string>{"1:10: duplicate argument 'a' in function definition"});
  EXPECT_EQ(errors_of("def f(*): pass\n"), std::vector<std::string>{"1:7: named arguments must follow bare *"});
  EXPECT_EQ(errors_of("x = 'a' b'b'\n"), std::vector<std::string>{"1:9: cannot mix bytes and nonbytes literals"});
}

TEST(ParserErrors, LexicalErrorsAreReportedInOrder) {
  EXPECT_EQ(errors_of("a = $\nb = 'x\nc = 0777\nd = (\n"),
            (std::vector<std::string>{"1:5: invalid character '$'", "2:5: unterminated string literal",
                                      "3:5: leading zeros in decimal integer literals are not permitted; use an 0o "
                                      "prefix for octal",
                                      "4:6: expected ')' to close '(' opened at 4:5"}));
  EXPECT_EQ(errors_of("x = f'{a!z}'\n"),
            std::vector<std::string>{"1:10: f-string: invalid conversion character 'z': expected 's', 'r', or 'a'"});
  EXPECT_EQ(errors_of("x = f'{}'\n"),
            std::vector<std::string>{"1:8: f-string: valid expression required before '}'"});
}

TEST(ParserErrors, SeveralErrorsFromOneFile) {
  const char* text =
      "import torch\n"
      "x = (1 +\n"
      "def get_inputs():\n"
      "    return [torch.randn(4, 4)]\n"
      "\n"
      "class Model(nn.Module)\n"
      "    def forward(self, x):\n"
      "        y = x +* 2\n"
      "        return y\n"
      "\n"
      "z = ]\n"
      "w = 1\n";
  Parsed p = parse_text(text);
  EXPECT_EQ(p.errors, (std::vector<std::string>{"2:5: '(' was never closed", "6:23: expected ':'",
                                                "8:16: unexpected token '*'", "11:5: unexpected token ']'"}));
  // What parsed is kept: the import, get_inputs and w.
  EXPECT_NE(p.dump.find("(import torch)"), std::string::npos);
  EXPECT_NE(p.dump.find("(def get_inputs"), std::string::npos);
  EXPECT_NE(p.dump.find("(= w 1)"), std::string::npos);
}

TEST(ParserErrors, ErrorCountIsCapped) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "x = )\n";
  std::vector<std::string> errors = errors_of(text);
  EXPECT_LE(errors.size(), 52u);
  EXPECT_EQ(errors.back().substr(errors.back().find(": ") + 2), "too many errors; stopping here");
}

// ---- adversarial input: bounded depth, no crash ----

TEST(ParserLimits, DeepParentheses) {
  std::string text = "x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\ny = 2\n";
  Parsed p = parse_text(text);
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_NE(p.errors[0].find("too deeply nested"), std::string::npos);
  EXPECT_EQ(p.dump, "(= y 2)\n");
  // 100 levels are fine.
  EXPECT_EQ(expr(std::string(100, '(') + "1" + std::string(100, ')')), "1");
}

TEST(ParserLimits, DeepUnaryAndPower) {
  EXPECT_NE(parse_text("x = " + std::string(5000, '-') + "1\n").errors.at(0).find("too deeply nested"),
            std::string::npos);
  std::string pow = "x = 2";
  for (int i = 0; i < 5000; ++i) pow += "**2";
  EXPECT_NE(parse_text(pow + "\n").errors.at(0).find("too deeply nested"), std::string::npos);
  std::string nots = "x = ";
  for (int i = 0; i < 5000; ++i) nots += "not ";
  EXPECT_NE(parse_text(nots + "a\n").errors.at(0).find("too deeply nested"), std::string::npos);
  std::string lambdas = "x = ";
  for (int i = 0; i < 5000; ++i) lambdas += "lambda: ";
  EXPECT_NE(parse_text(lambdas + "a\n").errors.at(0).find("too deeply nested"), std::string::npos);
}

TEST(ParserLimits, LongFlatChainIsTooComplex) {
  std::string text = "x = a";
  for (int i = 0; i < 20000; ++i) text += " + a";
  Parsed p = parse_text(text + "\ny = 1\n");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.errors[0], "1:1: expression too complex (nested more than 500 levels deep)");
  EXPECT_EQ(p.dump, "(= y 1)\n");
  std::string attrs = "x = a";
  for (int i = 0; i < 20000; ++i) attrs += ".b";
  EXPECT_EQ(parse_text(attrs + "\n").errors.size(), 1u);
  // Long but shallow is fine: a 20000-element list.
  std::string list = "x = [";
  for (int i = 0; i < 20000; ++i) list += "1, ";
  EXPECT_TRUE(parse_text(list + "]\n").errors.empty());
}

TEST(ParserLimits, DeepBlocksAndElifChains) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  text += std::string(1000, ' ') + "pass\n";
  Parsed p = parse_text(text + "y = 1\n");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_NE(p.errors[0].find("too deeply nested"), std::string::npos);
  EXPECT_NE(p.dump.find("(= y 1)"), std::string::npos);
  std::string elifs = "if a:\n  pass\n";
  for (int i = 0; i < 5000; ++i) elifs += "elif a:\n  pass\n";
  Parsed q = parse_text(elifs + "else:\n  pass\ny = 1\n");
  ASSERT_EQ(q.errors.size(), 1u);
  EXPECT_EQ(q.errors[0], "395:1: too deeply nested (more than 200 levels; each 'elif' counts as one)");
  // An elif chain inside deep blocks counts towards the same limit.
  std::string nested;
  for (int i = 0; i < 150; ++i) nested += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  std::string pad(150, ' ');
  nested += pad + "if a:\n" + pad + "  pass\n";
  for (int i = 0; i < 100; ++i) nested += pad + "elif a:\n" + pad + "  pass\n";
  Parsed r = parse_text(nested + "y = 1\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("each 'elif' counts as one"), std::string::npos);
  EXPECT_NE(r.dump.find("(= y 1)"), std::string::npos);
  EXPECT_NE(q.dump.find("(= y 1)"), std::string::npos);
}

TEST(ParserLimits, GarbageDoesNotCrash) {
  const char* inputs[] = {"", "\n", ")", "(((", "]]]", "def", "class", "if", "@", "lambda", "f(", "a[", "{",
                          "x = [", "x = {1:", "import", "from", "from . import", "with", "try", "\\", "'", "'''",
                          "f'", "f'{", "f'{x!", "f'{x:", "f'{x:{", "\t\tx\n  y", "\x00\xff\xfe", "a = = = b",
                          "for in", "x: = 1", "del", "return return", "if x: if y: pass", "*", "**x", ":=",
                          "elif x:", "else:", "except:", "finally:", "  \n\t\n  x", "x\\\n", "a if b", "not",
                          "1 if 2 else", "f(**)", "f(*)", "a[::::]", "{**}", "[*]", "(*)", "lambda *: 1"};
  for (const char* text : inputs) {
    Parsed p = parse_text(text);
    (void)p;
  }
  SUCCEED();
}

// ---- every real file parses cleanly ----

std::vector<std::filesystem::path> python_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::is_directory(dir)) return out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".py") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_parses(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  SourceFile file{path.string(), text.str()};
  ast::AstArena arena;
  Diagnostics diags;
  ast::Module m = parse(file, arena, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  EXPECT_FALSE(m.body.empty()) << path;
}

TEST(ParserFiles, CorpusAndExamplesParse) {
  const std::filesystem::path root = TRITONIZE_SOURCE_DIR;
  std::vector<std::filesystem::path> files = python_files(root / "tests" / "corpus");
  ASSERT_FALSE(files.empty()) << "no files in tests/corpus";
  for (const auto& dir : {root / "examples", root / ".." / "shared" / "examples"}) {
    for (const auto& f : python_files(dir)) files.push_back(f);
  }
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    expect_parses(f);
  }
}

}  // namespace
}  // namespace tz
