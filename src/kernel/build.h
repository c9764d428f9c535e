// Small constructors for tile-IR expressions, so lowering code reads like the Triton it produces.
#pragma once

#include <string>

#include "kernel/tile.h"

namespace tz {

class TileBuilder {
 public:
  explicit TileBuilder(TileArena& arena) : a_(arena) {}

  const TExpr* var(const std::string& name) { return a_.make({TOp::Var, name}); }
  const TExpr* i(int64_t v) {
    TExpr e{TOp::Int};
    e.ival = v;
    return a_.make(e);
  }
  const TExpr* f(double v) {
    TExpr e{TOp::Float};
    e.fval = v;
    return a_.make(e);
  }
  const TExpr* op(TOp o, std::vector<const TExpr*> args) {
    TExpr e{o};
    e.args = std::move(args);
    return a_.make(e);
  }
  // A call of a Triton function or of a @triton.jit helper the printer emits once per file (TOp::Call).
  const TExpr* call(const std::string& name, std::vector<const TExpr*> args) {
    TExpr e{TOp::Call, name};
    e.args = std::move(args);
    return a_.make(e);
  }
  const TExpr* add(const TExpr* x, const TExpr* y) { return op(TOp::Add, {x, y}); }
  const TExpr* mul(const TExpr* x, const TExpr* y) { return op(TOp::Mul, {x, y}); }
  const TExpr* lt(const TExpr* x, const TExpr* y) { return op(TOp::Lt, {x, y}); }
  const TExpr* band(const TExpr* x, const TExpr* y) {
    if (!x) return y;
    if (!y) return x;
    return op(TOp::And, {x, y});
  }
  const TExpr* num_programs(int axis) {
    TExpr e{TOp::NumPrograms};
    e.ival = axis;
    return a_.make(e);
  }
  const TExpr* program_id(int axis) {
    TExpr e{TOp::ProgramId};
    e.ival = axis;
    return a_.make(e);
  }
  const TExpr* arange(const TExpr* n) { return op(TOp::Arange, {n}); }
  const TExpr* expand(const TExpr* x, const std::string& index) {  // x[:, None]
    TExpr e{TOp::Expand, index};
    e.args = {x};
    return a_.make(e);
  }
  const TExpr* cast(const TExpr* x, DType t) {
    // (a literal has no .to(): `0.to(tl.float32)` is not Python; it becomes a 0-d tensor first)
    if (x->op == TOp::Int || x->op == TOp::Float) x = full("[]", x, x->op == TOp::Int ? DType::Int64 : DType::Float32);
    TExpr e{TOp::Cast};
    e.dtype = t;
    e.args = {x};
    return a_.make(e);
  }
  const TExpr* reduce(TOp o, const TExpr* x, int axis) {
    TExpr e{o};
    e.ival = axis;
    e.args = {x};
    return a_.make(e);
  }
  const TExpr* scan(TOp o, const TExpr* x, int axis, bool reverse) {
    TExpr e{o, reverse ? "reverse" : ""};
    e.ival = axis;
    e.args = {x};
    return a_.make(e);
  }
  const TExpr* full(const std::string& shape, const TExpr* value, DType t) {
    TExpr e{TOp::Full, shape};
    e.dtype = t;
    e.args = {value};
    return a_.make(e);
  }
  const TExpr* zeros(const std::string& shape, DType t) {
    TExpr e{TOp::Zeros, shape};
    e.dtype = t;
    return a_.make(e);
  }
  const TExpr* load(const TExpr* ptr, const TExpr* mask, const TExpr* other) {
    std::vector<const TExpr*> args = {ptr};
    if (mask) {
      args.push_back(mask);
      if (other) args.push_back(other);
    }
    return op(TOp::Load, args);
  }

  static TStmt assign(const std::string& var, const TExpr* value) {
    TStmt s{TStmtKind::Assign};
    s.var = var;
    s.value = value;
    return s;
  }
  static TStmt store(const TExpr* ptr, const TExpr* value, const TExpr* mask) {
    TStmt s{TStmtKind::Store};
    s.ptr = ptr;
    s.value = value;
    s.mask = mask;
    return s;
  }
  static TStmt comment(const std::string& text) {
    TStmt s{TStmtKind::Comment};
    s.text = text;
    return s;
  }
  static TStmt blank() { return TStmt{TStmtKind::Blank}; }

 private:
  TileArena& a_;
};

}  // namespace tz
