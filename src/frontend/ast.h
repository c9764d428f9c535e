// The AST of the Python subset that module files use. Nodes are plain structs owned by an AstArena; every
// node carries the location of its first token. One Expr struct and one Stmt struct, distinguished by kind:
// the tracer switches on kind, and unused fields stay empty.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace tz::ast {

enum class ExprKind {
  Name,       // name
  Int,        // int_value
  Float,      // float_value
  Str,        // str_value (adjacent literals already concatenated)
  Bool,       // bool_value (True/False)
  None,       // None
  Ellipsis,   // ...
  Tuple,      // elts (also the bare `a, b` form)
  List,       // elts
  Dict,       // keys, values (a `**d` entry has keys[i] == nullptr)
  Set,        // elts
  BinOp,      // op, lhs, rhs
  UnaryOp,    // op (Neg, Pos, Invert, Not), operand = lhs
  BoolOp,     // op (And, Or), elts = operands (2 or more)
  Compare,    // lhs, cmp_ops, elts = comparators (a < b < c: lhs=a, cmp_ops={Lt,Lt}, elts={b,c})
  IfExp,      // body = lhs, test = test, orelse = rhs
  Attribute,  // lhs.name
  Subscript,  // lhs[rhs]   (rhs may be a Tuple of indices/slices)
  Slice,      // lower = lhs, upper = rhs, step = step (each may be null)
  Call,       // func = lhs, args
  Starred,    // *lhs (in calls, targets, displays)
  Lambda,     // params, body = lhs
  ListComp,   // elt = lhs, comps
  SetComp,    // elt = lhs, comps
  GeneratorExp,  // elt = lhs, comps
  DictComp,   // key = lhs, value = rhs, comps
  FString,    // f"...": elts = the pieces in order, each a Str or a FormattedValue (adjacent literals joined)
  FormattedValue,  // {lhs!name:rhs} in an f-string: name = conversion ("", "r", "s", "a"), rhs = spec (FString)
};

enum class Op {
  // binary
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd, BitOr, BitXor,
  // unary
  Neg, Pos, Invert, Not,
  // boolean
  And, Or,
  // comparison
  Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn,
};

const char* op_name(Op op);  // "+", "not in", ...

struct Expr;
struct Stmt;

struct Arg {             // one argument of a call
  std::string keyword;   // "" for positional
  bool star = false;     // *value
  bool double_star = false;  // **value
  Expr* value = nullptr;
  SourceLoc loc;
};

struct Param {           // one parameter of a def or lambda
  enum class Kind { Normal, VarArgs, KwOnly, KwArgs };
  std::string name;
  Kind kind = Kind::Normal;
  Expr* default_value = nullptr;
  Expr* annotation = nullptr;
  SourceLoc loc;
};

struct Comprehension {   // for target in iter if cond1 if cond2
  Expr* target = nullptr;
  Expr* iter = nullptr;
  std::vector<Expr*> ifs;
};

struct Expr {
  ExprKind kind;
  SourceLoc loc;
  std::string name;          // Name identifier; Attribute attribute name
  int64_t int_value = 0;
  double float_value = 0.0;
  std::string str_value;
  bool bytes = false;        // Str: a b'' literal (str_value holds the bytes)
  bool bool_value = false;
  Op op = Op::Add;
  Expr* lhs = nullptr;
  Expr* rhs = nullptr;
  Expr* test = nullptr;
  Expr* step = nullptr;
  std::vector<Expr*> elts;
  std::vector<Expr*> keys;
  std::vector<Expr*> values;
  std::vector<Op> cmp_ops;
  std::vector<Arg> args;
  std::vector<Param> params;
  std::vector<Comprehension> comps;
};

enum class StmtKind {
  Expr,         // value (docstrings are Expr statements holding a Str)
  Assign,       // targets (a = b = value), value
  AugAssign,    // targets[0] op= value
  AnnAssign,    // targets[0]: annotation = value (value may be null)
  Return,       // value (may be null)
  If,           // test, body, orelse
  For,          // targets[0] in value: body, orelse
  While,        // test, body, orelse
  Break,
  Continue,
  Pass,
  FunctionDef,  // name, params, body, decorators, returns = annotation
  ClassDef,     // name, bases (call-style args), body, decorators
  Import,       // aliases: import a.b as c
  ImportFrom,   // module, aliases: from a.b import c as d (name "*" for star)
  Assert,       // test, value = message (may be null)
  Raise,        // value (may be null), test = cause of `raise value from test` (may be null)
  Delete,       // targets
  Global,       // names
  Nonlocal,     // names
  With,         // items[i] as targets[i] (null without `as`), body — parsed so that it can be rejected by name
  Try,          // body, handlers (each a Stmt of kind ExceptHandler), orelse, finalbody
  ExceptHandler,  // value = type (may be null), name, body
};

struct Alias {
  std::string name;     // dotted name for Import; plain for ImportFrom
  std::string asname;   // "" when absent
  SourceLoc loc;
};

struct Stmt {
  StmtKind kind;
  SourceLoc loc;
  std::string name;
  std::string module;           // ImportFrom module (dots kept, e.g. "..x")
  std::vector<Alias> aliases;
  std::vector<std::string> names;  // Global/Nonlocal
  std::vector<Expr*> targets;
  Expr* value = nullptr;
  Expr* test = nullptr;
  Expr* annotation = nullptr;
  Op op = Op::Add;
  std::vector<Stmt*> body;
  std::vector<Stmt*> orelse;
  std::vector<Stmt*> finalbody;
  std::vector<Stmt*> handlers;
  std::vector<Expr*> decorators;
  std::vector<Param> params;
  std::vector<Arg> bases;
  std::vector<Expr*> items;     // With context expressions
};

struct Module {
  const SourceFile* file = nullptr;
  std::vector<Stmt*> body;
};

// Owns every node of one parse.
class AstArena {
 public:
  Expr* expr(ExprKind kind, SourceLoc loc) {
    exprs_.push_back(std::make_unique<Expr>());
    exprs_.back()->kind = kind;
    exprs_.back()->loc = loc;
    return exprs_.back().get();
  }
  Stmt* stmt(StmtKind kind, SourceLoc loc) {
    stmts_.push_back(std::make_unique<Stmt>());
    stmts_.back()->kind = kind;
    stmts_.back()->loc = loc;
    return stmts_.back().get();
  }

 private:
  std::vector<std::unique_ptr<Expr>> exprs_;
  std::vector<std::unique_ptr<Stmt>> stmts_;
};

// A compact S-expression dump, one statement per line, used by `--emit=ast` and golden tests.
std::string dump(const Module& module);

}  // namespace tz::ast
