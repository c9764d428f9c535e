// Triton printer (see triton_printer.h). Operator spelling and precedence come from one table.
#include "emit/triton_printer.h"

#include <cmath>
#include <sstream>

#include "emit/writer.h"
#include "graph/dtype.h"
#include "support/diagnostics.h"

namespace tz {

namespace {

// How each operator prints: infix operators by symbol and precedence (Python's), calls by format.
struct Spelling {
  TOp op;
  const char* text;  // infix symbol, or function name for calls
  int prec;          // infix precedence; 0 for calls/atoms
};

constexpr Spelling kSpellings[] = {
    // Python's order: comparisons < | < & < + - < * / // %
    {TOp::Lt, "<", 4},       {TOp::Le, "<=", 4},      {TOp::Gt, ">", 4},         {TOp::Ge, ">=", 4},
    {TOp::Eq, "==", 4},      {TOp::Ne, "!=", 4},      {TOp::Or, "|", 5},         {TOp::And, "&", 7},
    {TOp::Add, "+", 10},     {TOp::Sub, "-", 10},     {TOp::Mul, "*", 12},       {TOp::Div, "/", 12},
    {TOp::FloorDiv, "//", 12}, {TOp::Mod, "%", 12},
    {TOp::Where, "tl.where", 0},     {TOp::Maximum, "tl.maximum", 0}, {TOp::Minimum, "tl.minimum", 0},
    {TOp::Exp, "tl.exp", 0},         {TOp::Exp2, "tl.exp2", 0},       {TOp::Log, "tl.log", 0},
    {TOp::Log2, "tl.log2", 0},       {TOp::Sqrt, "tl.sqrt_rn", 0},
    {TOp::Rsqrt, "tl.rsqrt", 0},     {TOp::Sin, "tl.sin", 0},         {TOp::Cos, "tl.cos", 0},
    {TOp::Sigmoid, "tl.sigmoid", 0}, {TOp::Erf, "tl.erf", 0},         {TOp::Abs, "tl.abs", 0},
    {TOp::Floor, "tl.floor", 0},     {TOp::Ceil, "tl.ceil", 0},       {TOp::Cdiv, "tl.cdiv", 0},       {TOp::Min2, "min", 0},
    {TOp::Sum, "tl.sum", 0},         {TOp::Max, "tl.max", 0},         {TOp::Min, "tl.min", 0},
};

const Spelling& spelling(TOp op) {
  for (const auto& s : kSpellings) {
    if (s.op == op) return s;
  }
  static const Spelling none{TOp::Var, "", 0};
  return none;
}

constexpr int kUnaryPrec = 14;
constexpr int kAtomPrec = 16;

std::string float_text(double v) {
  if (std::isinf(v)) return v > 0 ? "float(\"inf\")" : "float(\"-inf\")";
  if (std::isnan(v)) return "float(\"nan\")";
  std::string s;
  for (int digits = 6; digits <= 17; ++digits) {  // the shortest text that reads back as the same double
    std::ostringstream os;
    os.precision(digits);
    os << v;
    s = os.str();
    if (std::stod(s) == v) break;
  }
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string print(const TExpr* e, int& prec);

std::string print_at(const TExpr* e, int min_prec) {
  int p = 0;
  std::string s = print(e, p);
  return p < min_prec ? "(" + s + ")" : s;
}

std::string call(const std::string& fn, const std::vector<const TExpr*>& args) {
  std::string s = fn + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + print_at(args[i], 0);
  return s + ")";
}

std::string print(const TExpr* e, int& prec) {
  prec = kAtomPrec;
  switch (e->op) {
    case TOp::Var: return e->name;
    case TOp::Int:
      if (e->ival < 0) prec = kUnaryPrec;
      return std::to_string(e->ival);
    case TOp::Float: {
      std::string s = float_text(e->fval);
      if (e->fval < 0 && !std::isinf(e->fval)) prec = kUnaryPrec;
      return s;
    }
    case TOp::Neg: prec = kUnaryPrec; return "-" + print_at(e->args[0], kUnaryPrec);
    case TOp::Not: prec = kUnaryPrec; return "~" + print_at(e->args[0], kUnaryPrec);
    case TOp::ProgramId: return "tl.program_id(" + std::to_string(e->ival) + ")";
    case TOp::NumPrograms: return "tl.num_programs(" + std::to_string(e->ival) + ")";
    case TOp::Arange: return "tl.arange(0, " + print_at(e->args[0], 0) + ")";
    case TOp::Load: {
      std::string s = "tl.load(" + print_at(e->args[0], 0);
      if (e->args.size() > 1) s += ", mask=" + print_at(e->args[1], 0);
      if (e->args.size() > 2) s += ", other=" + print_at(e->args[2], 0);
      if (e->name == "volatile") s += ", volatile=True";
      return s + ")";
    }
    case TOp::AtomicAdd: {
      return "tl.atomic_add(" + print_at(e->args[0], 0) + ", " + print_at(e->args[1], 0) + ", sem=\"" + e->name + "\")";
    }
    case TOp::Cast:  // to a fixed type, or (two operands) to a type computed in the kernel
      return print_at(e->args[0], kAtomPrec) + ".to(" +
             (e->args.size() > 1 ? print_at(e->args[1], 0) : std::string(triton_dtype_name(e->dtype))) + ")";
    case TOp::Sum:
    case TOp::Max:
    case TOp::Min:
      return std::string(spelling(e->op).text) + "(" + print_at(e->args[0], 0) + ", axis=" + std::to_string(e->ival) +
             ", keep_dims=True)";
    case TOp::Prod:
    case TOp::NanMax:
    case TOp::NanMin:
      return "tl.reduce(" + print_at(e->args[0], 0) + ", " + std::to_string(e->ival) + ", " +
             (e->op == TOp::Prod ? "_mul_combine" : e->op == TOp::NanMax ? "_nan_max" : "_nan_min") + ", keep_dims=True)";
    case TOp::NanMaximum:
    case TOp::NanMinimum:
      return std::string(e->op == TOp::NanMaximum ? "tl.maximum(" : "tl.minimum(") + print_at(e->args[0], 0) + ", " +
             print_at(e->args[1], 0) + ", propagate_nan=tl.PropagateNan.ALL)";
    case TOp::Cumsum:
    case TOp::Cumprod:
      return std::string(e->op == TOp::Cumsum ? "tl.cumsum(" : "tl.cumprod(") + print_at(e->args[0], 0) +
             ", axis=" + std::to_string(e->ival) + (e->name == "reverse" ? ", reverse=True)" : ")");
    case TOp::ArgMax:
    case TOp::ArgMin: internal_error("argmax reaches the printer only as max/min", __FILE__, __LINE__);
    case TOp::Dot:
      return "tl.dot(" + print_at(e->args[0], 0) + ", " + print_at(e->args[1], 0) + ", " + print_at(e->args[2], 0) +
             ", input_precision=" + print_at(e->args[3], 0) + ")";
    case TOp::Zeros: return "tl.zeros(" + e->name + ", dtype=" + triton_dtype_name(e->dtype) + ")";
    case TOp::Full:
      return "tl.full(" + e->name + ", " + print_at(e->args[0], 0) + ", dtype=" + triton_dtype_name(e->dtype) + ")";
    case TOp::Expand: return print_at(e->args[0], kAtomPrec) + "[" + e->name + "]";
    case TOp::ElementTy: return print_at(e->args[0], kAtomPrec) + ".dtype.element_ty";
    case TOp::Call: return call(e->name, e->args);
    default: break;
  }
  const Spelling& sp = spelling(e->op);
  TZ_ASSERT(sp.text[0] != '\0', "operator with no spelling in the printer table");
  if (sp.prec == 0) return call(sp.text, e->args);
  prec = sp.prec;
  // Left-associative: the right operand needs parentheses at equal precedence; comparisons never chain.
  int left = sp.prec == 4 ? sp.prec + 1 : sp.prec;
  return print_at(e->args[0], left) + " " + sp.text + " " + print_at(e->args[1], sp.prec + 1);
}

void print_stmts(Writer& w, const std::vector<TStmt>& body) {
  for (const auto& s : body) {
    switch (s.kind) {
      case TStmtKind::Assign: w.line(s.var + " = " + print_at(s.value, 0)); break;
      case TStmtKind::Store: {
        std::string line = "tl.store(" + print_at(s.ptr, 0) + ", " + print_at(s.value, 0);
        if (s.mask) line += ", mask=" + print_at(s.mask, 0);
        w.line(line + ")");
        break;
      }
      case TStmtKind::For: {
        // range(stop) when it counts from 0 by 1, else range(start, stop, step)
        bool plain = s.start->op == TOp::Int && s.start->ival == 0 && s.step->op == TOp::Int && s.step->ival == 1;
        std::string bounds = plain ? print_at(s.stop, 0)
                                   : print_at(s.start, 0) + ", " + print_at(s.stop, 0) + ", " + print_at(s.step, 0);
        w.line("for " + s.var + " in " + (s.unroll ? "tl.static_range(" : "range(") + bounds + "):");
        w.indent();
        print_stmts(w, s.body);
        w.dedent();
        break;
      }
      case TStmtKind::While:
      case TStmtKind::If:
        w.line(std::string(s.kind == TStmtKind::While ? "while " : "if ") + print_at(s.value, 0) + ":");
        w.indent();
        print_stmts(w, s.body);
        w.dedent();
        break;
      case TStmtKind::Barrier: w.line("tl.debug_barrier()"); break;
      case TStmtKind::Comment: w.line("# " + s.text); break;
      case TStmtKind::Blank: w.line(); break;
    }
  }
}

}  // namespace

std::string print_expr(const TExpr* e) { return print_at(e, 0); }

std::vector<const KernelParam*> signature_order(const Kernel& k) {
  std::vector<const KernelParam*> order;
  for (const auto& p : k.params) {
    if (p.kind != ParamKind::Constexpr) order.push_back(&p);
  }
  for (const auto& p : k.params) {
    if (p.kind == ParamKind::Constexpr) order.push_back(&p);
  }
  return order;
}

std::string print_kernel(const Kernel& k) {
  Writer w;
  w.line("@triton.jit");
  std::string sig = "def " + k.name + "(";
  std::string tensors;
  for (const KernelParam* p : signature_order(k)) {
    if (p->kind != ParamKind::Constexpr) tensors += (tensors.empty() ? "" : ", ") + p->name;
  }
  w.line(sig);
  w.indent();
  // One line of tensors, then the compile-time sizes, wrapped before 100 columns.
  if (!tensors.empty()) w.line(tensors + ",");
  std::string line;
  for (const KernelParam* p : signature_order(k)) {
    if (p->kind != ParamKind::Constexpr) continue;
    std::string item = p->name + ": tl.constexpr,";
    if (!line.empty() && line.size() + 1 + item.size() > 92) {
      w.line(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + item;
  }
  if (!line.empty()) w.line(line);
  w.dedent();
  w.line("):");
  w.indent();
  for (const auto& c : k.source_comments) w.line("# " + c);
  print_stmts(w, k.body);
  w.dedent();
  return w.str();
}

}  // namespace tz
