// Tensor operations: PyTorch's shape and dtype rules, located checks, then graph nodes (forward) or shapes.
#include "trace/tensor_ops.h"

#include <algorithm>
#include <utility>
#include <cmath>
#include <cctype>
#include <limits>
#include <map>

namespace tz::tracer {

namespace {

// 0 bool, 1 integer, 2 floating: PyTorch promotes across categories, and within one only between tensors
// of the same "priority" (dimensioned tensors over 0-d tensors over Python scalars).
int category(DType t) { return t == DType::Bool ? 0 : is_integral(t) ? 1 : 2; }
int scalar_category(const Value& v) { return v.is(Kind::Bool) ? 0 : v.is(Kind::Int) ? 1 : 2; }

std::string shape_text(const Shape& s) { return shape_str(s); }

// Whether the op builds graph nodes: forward tensors only, never mixed with tensors made elsewhere.
bool traced(Interp& in, std::initializer_list<const TensorObj*> ts, SourceLoc loc) {
  bool plain = false;
  in.strided_operands = false;
  in.layout_source = nullptr;
  for (const TensorObj* t : ts) {
    if (t && !t->node) plain = true;
    if (t && (t->strided || !t->perm.empty())) in.strided_operands = true;
    if (t && !in.layout_source) in.layout_source = t;
  }
  if (in.phase != Phase::Forward) return false;
  if (plain) {
    fail(loc, "a tensor created outside forward() that is not a parameter or buffer of the module is used here");
  }
  return true;
}

Value from_node(Interp& in, const Node* n) {
  TensorObj* t = in.new_tensor(n->shape, n->dtype, Phase::Forward);
  t->node = n;
  return in.wrap(t);
}

Value shape_only(Interp& in, Shape s, DType d) {
  TensorObj* t = in.new_tensor(std::move(s), d, Phase::Shape);
  const TensorObj* like = std::exchange(in.layout_source, nullptr);
  if (std::exchange(in.strided_operands, false)) {
    if (like && like->shape == t->shape) {
      t->perm = like->perm;
      t->strided = like->strided;
    } else {
      t->strided = true;
    }
  }
  return in.wrap(t);
}

const TensorObj* maybe_tensor(const Value& v) { return v.is(Kind::Tensor) ? tensor_of(v) : nullptr; }

void need_scalar_or_tensor(const Value& v, SourceLoc loc) {
  if (v.is(Kind::Tensor) || v.is_number()) return;
  fail(loc, "a tensor operation got a " + type_name(v) + " operand (a tensor or a number expected)");
}


const Node* operand(Interp& in, const Value& v, DType t) {
  if (v.is(Kind::Tensor)) return in.graph->cast(tensor_of(v)->node, t);
  return in.graph->constant(v.as_double(), t);
}

Shape broadcast_or_fail(const Shape& a, const Shape& b, SourceLoc loc) {
  Shape out;
  if (!broadcast_shapes(a, b, out))
    fail(loc, "shapes " + shape_text(a) + " and " + shape_text(b) + " do not broadcast");
  return out;
}

bool is_float_math(Op op) {
  switch (op) {
    case Op::Exp:
    case Op::Log:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh:
    case Op::Sigmoid:
    case Op::Erf:
    case Op::Expm1:
    case Op::Log1p:
    case Op::Log2:
    case Op::Exp2: return true;
    default: return false;
  }
}

Shape shape_of(const Value& v) { return v.is(Kind::Tensor) ? tensor_of(v)->shape : Shape{}; }

void check_float64(DType t, SourceLoc loc) {
  if (t == DType::Float64) fail(loc, "float64 tensors are not supported");
}

}  // namespace

// The dtype two operands compute in (tensors or Python scalars, at least one tensor).
DType common_dtype(const Value& a, const Value& b) {
  const TensorObj* ta = maybe_tensor(a);
  const TensorObj* tb = maybe_tensor(b);
  if (ta && tb) {
    bool za = ta->rank() == 0, zb = tb->rank() == 0;
    if (za != zb) {
      const TensorObj* dim = za ? tb : ta;
      const TensorObj* zero = za ? ta : tb;
      return category(zero->dtype) > category(dim->dtype) ? zero->dtype : dim->dtype;
    }
    return promote(ta->dtype, tb->dtype);
  }
  const TensorObj* t = ta ? ta : tb;
  const Value& s = ta ? b : a;
  if (scalar_category(s) <= category(t->dtype)) return t->dtype;
  return s.is(Kind::Float) ? DType::Float32 : DType::Int64;
}

TensorObj* need_tensor(const Value& v, const std::string& what, SourceLoc loc) {
  if (!v.is(Kind::Tensor)) fail(loc, what + ": expected a tensor, got " + type_name(v));
  return tensor_of(v);
}

int64_t norm_dim(int64_t dim, int rank, SourceLoc loc) {
  int64_t r = std::max(rank, 1);
  if (dim < -r || dim >= r) {
    fail(loc, "dim " + std::to_string(dim) + " is out of range for a tensor of rank " + std::to_string(rank) +
                  " (expected in [" + std::to_string(-r) + ", " + std::to_string(r - 1) + "])");
  }
  return dim < 0 ? dim + r : dim;
}

void check_shape(const Shape& shape, SourceLoc loc) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) fail(loc, "negative dimension " + std::to_string(d) + " in the size " + shape_text(shape));
    if (d == 0) fail(loc, "a tensor of size " + shape_text(shape) + ": tensors with no elements are not supported");
    if (__builtin_mul_overflow(n, d, &n) || n > (int64_t(1) << 48)) {
      fail(loc, "a tensor of size " + shape_text(shape) + " is too large");
    }
  }
}

DType scalar_dtype(const Value& v) {
  if (v.is(Kind::Bool)) return DType::Bool;
  if (v.is(Kind::Int)) return DType::Int64;
  if (v.is(Kind::Float)) return DType::Float32;
  if (v.is_seq()) {
    DType t = DType::Bool;
    for (const Value& x : items_of(v)) {
      DType e = scalar_dtype(x);
      if (category(e) > category(t)) t = e;
    }
    return t;
  }
  return DType::Float32;
}

Value t_unary(Interp& in, Op op, const Value& x, SourceLoc loc) {
  TensorObj* t = need_tensor(x, op_name(op), loc);
  if (op == Op::Neg && t->dtype == DType::Bool) {
    fail(loc, "negating a bool tensor is not supported (use ~ or torch.logical_not)");
  }
  // floor, ceil and round of an integer or bool tensor are a copy of it (ATen's floor, ceil, round).
  if ((op == Op::Floor || op == Op::Ceil || op == Op::Round) && !is_floating(t->dtype)) {
    if (t->dtype == DType::Bool) fail(loc, std::string(op_name(op)) + " of a bool tensor is not supported (as in PyTorch)");
    return x;
  }
  DType in_type = is_float_math(op) && !is_floating(t->dtype) ? DType::Float32 : t->dtype;
  if (traced(in, {t}, loc)) {
    return from_node(in, in.graph->unary(op, in.graph->cast(t->node, in_type, loc), loc));
  }
  return shape_only(in, t->shape, op == Op::LogicalNot ? DType::Bool : in_type);
}

Value t_tri(Interp& in, const Value& x, int64_t diagonal, bool upper, SourceLoc loc) {
  std::string name = upper ? "torch.triu" : "torch.tril";
  TensorObj* t = need_tensor(x, name, loc);
  if (t->rank() < 2) fail(loc, name + ": the input must have at least 2 dims, got " + shape_text(t->shape));
  if (!traced(in, {t}, loc)) return shape_only(in, t->shape, t->dtype);
  Attr a;
  a.ints = {diagonal, upper ? 1 : 0};
  return from_node(in, in.graph->make(Op::Tri, t->dtype, t->shape, {t->node}, a, loc));
}

Value t_diag(Interp& in, const Value& x, int64_t diagonal, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "torch.diag", loc);
  if (t->rank() != 1 && t->rank() != 2) {
    fail(loc, "torch.diag expects a 1-D or 2-D tensor, got " + shape_text(t->shape));
  }
  Shape out = t->rank() == 1 ? Shape{t->shape[0] + std::abs(diagonal), t->shape[0] + std::abs(diagonal)}
                             : Shape{std::max<int64_t>(0, std::min(t->shape[0] - std::max<int64_t>(0, -diagonal),
                                                                   t->shape[1] - std::max<int64_t>(0, diagonal)))};
  if (!traced(in, {t}, loc)) return shape_only(in, out, t->dtype);
  if (t->rank() == 2) fail(loc, "torch.diag of a matrix (taking its diagonal) in forward() is not supported yet");
  if (diagonal != 0) fail(loc, "torch.diag with diagonal != 0 in forward() is not supported yet");
  return from_node(in, in.graph->make(Op::Diag, t->dtype, out, {t->node}, {}, loc));
}

Value t_binary(Interp& in, Op op, const Value& a, const Value& b, SourceLoc loc) {
  need_scalar_or_tensor(a, loc);
  need_scalar_or_tensor(b, loc);
  if (!maybe_tensor(a) && !maybe_tensor(b)) fail(loc, std::string(op_name(op)) + ": expected a tensor operand");
  Shape out = broadcast_or_fail(shape_of(a), shape_of(b), loc);
  check_shape(out, loc);
  DType c = common_dtype(a, b);
  if ((op == Op::Div || op == Op::DivRn) && !is_floating(c)) c = DType::Float32;  // true division of integers
  check_float64(c, loc);
  bool to_bool = op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge ||
                 op == Op::LogicalAnd || op == Op::LogicalOr;
  if (traced(in, {maybe_tensor(a), maybe_tensor(b)}, loc)) {
    const Node* na = operand(in, a, c);
    const Node* nb = operand(in, b, c);
    return from_node(in, in.graph->binary(op, na, nb, loc));
  }
  return shape_only(in, out, to_bool ? DType::Bool : c);
}

Value t_where(Interp& in, const Value& cond, const Value& a, const Value& b, SourceLoc loc) {
  TensorObj* tc = need_tensor(cond, "torch.where condition", loc);
  if (tc->dtype != DType::Bool) {
    fail(loc, std::string("torch.where expects a bool condition, got ") + torch_dtype_name(tc->dtype));
  }
  need_scalar_or_tensor(a, loc);
  need_scalar_or_tensor(b, loc);
  Shape ab = broadcast_or_fail(shape_of(a), shape_of(b), loc);
  Shape out = broadcast_or_fail(tc->shape, ab, loc);
  check_shape(out, loc);
  DType c;
  if (a.is(Kind::Tensor) || b.is(Kind::Tensor)) {
    c = common_dtype(a, b);
  } else {
    c = std::max(scalar_category(a), scalar_category(b)) == 2   ? DType::Float32
        : std::max(scalar_category(a), scalar_category(b)) == 1 ? DType::Int64
                                                                : DType::Bool;
  }
  check_float64(c, loc);
  if (traced(in, {tc, maybe_tensor(a), maybe_tensor(b)}, loc)) {
    const Node* na = operand(in, a, c);
    const Node* nb = operand(in, b, c);
    return from_node(in, in.graph->where(tc->node, na, nb, loc));
  }
  return shape_only(in, out, c);
}

Value t_clamp(Interp& in, const Value& x, const Value& lo, const Value& hi, SourceLoc loc) {
  need_tensor(x, "clamp", loc);
  if (lo.is_none() && hi.is_none()) fail(loc, "clamp: at least one of min and max must be given");
  Value r = x;
  if (!lo.is_none()) r = t_binary(in, Op::Maximum, r, lo, loc);
  if (!hi.is_none()) r = t_binary(in, Op::Minimum, r, hi, loc);
  return r;
}

Value t_cast(Interp& in, const Value& x, DType to, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "cast", loc);
  check_float64(to, loc);
  if (traced(in, {t}, loc)) return from_node(in, in.graph->cast(t->node, to, loc));
  if (t->dtype == to) return x;
  return shape_only(in, t->shape, to);  // (laid out like t, as PyTorch's preserve_format does)
}

namespace {

std::vector<int64_t> norm_dims(const std::vector<int64_t>& dims, int rank, SourceLoc loc) {
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    int64_t n = norm_dim(d, rank, loc);
    if (std::find(out.begin(), out.end(), n) != out.end()) {
      fail(loc, "dim " + std::to_string(n) + " appears more than once in the list of dims");
    }
    out.push_back(n);
  }
  if (rank == 0) out.clear();  // a 0-d tensor accepts dim 0 / -1 and has nothing to reduce
  std::sort(out.begin(), out.end());
  return out;
}

Shape reduced_shape(const Shape& s, const std::vector<int64_t>& axes, bool keepdim) {
  Shape out;
  for (int64_t i = 0; i < static_cast<int64_t>(s.size()); ++i) {
    bool r = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!r)
      out.push_back(s[static_cast<size_t>(i)]);
    else if (keepdim)
      out.push_back(1);
  }
  return out;
}

}  // namespace

Value t_reduce(Interp& in, Op op, const Value& x, std::optional<std::vector<int64_t>> dims, bool keepdim,
               SourceLoc loc) {
  TensorObj* t = need_tensor(x, op_name(op), loc);
  std::vector<int64_t> axes;
  if (dims) {
    axes = norm_dims(*dims, t->rank(), loc);
  } else {
    for (int i = 0; i < t->rank(); ++i) axes.push_back(i);
  }
  if (op == Op::Mean && !is_floating(t->dtype)) {
    fail(loc, std::string("mean of a ") + torch_dtype_name(t->dtype) +
                  " tensor is not supported (PyTorch needs a floating dtype)");
  }
  for (int64_t a : axes) {
    if (t->shape[static_cast<size_t>(a)] == 0 && (op == Op::Max || op == Op::Min)) {
      fail(loc, std::string(op_name(op)) + " over an empty dimension has no identity");
    }
  }
  if (traced(in, {t}, loc)) return from_node(in, in.graph->reduce(op, t->node, axes, keepdim, loc));
  DType d = t->dtype;
  if ((op == Op::Sum || op == Op::Prod) && (d == DType::Bool || d == DType::Int32)) d = DType::Int64;
  return shape_only(in, reduced_shape(t->shape, axes, keepdim), d);
}

Value t_arg_reduce(Interp& in, Op op, const Value& x, std::optional<int64_t> dim, bool keepdim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, op_name(op), loc);
  if (numel(t->shape) == 0) fail(loc, std::string(op_name(op)) + " of an empty tensor is not defined");
  if (!dim) {
    // Over the flattened tensor: a 1-D reduction; keepdim gives every dimension size 1.
    Value flat = t_reshape(in, x, {numel(t->shape)}, loc);
    Value r = t_arg_reduce(in, op, flat, 0, false, loc);
    if (keepdim) r = t_reshape(in, r, std::vector<int64_t>(t->shape.size(), 1), loc);
    return r;
  }
  int64_t d = norm_dim(*dim, t->rank(), loc);
  if (t->rank() == 0) return t_full(in, {}, 0, DType::Int64, loc);
  if (traced(in, {t}, loc)) return from_node(in, in.graph->reduce(op, t->node, {d}, keepdim, loc));
  return shape_only(in, reduced_shape(t->shape, {d}, keepdim), DType::Int64);
}

Value t_scan(Interp& in, Op op, const Value& x, int64_t dim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, op_name(op), loc);
  int64_t d = t->rank() == 0 ? norm_dim(dim, 1, loc) : norm_dim(dim, t->rank(), loc);
  DType out = is_floating(t->dtype) ? t->dtype : DType::Int64;
  if (!traced(in, {t}, loc)) return shape_only(in, t->shape, out);
  // Over a dim of one element (or a 0-d tensor) a scan is the identity.
  if (t->rank() == 0 || t->shape[static_cast<size_t>(d)] == 1) return from_node(in, in.graph->cast(t->node, out, loc));
  return from_node(in, in.graph->scan(op, t->node, d, false, loc));
}

Value t_softmax(Interp& in, Op op, const Value& x, int64_t dim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, op_name(op), loc);
  if (!is_floating(t->dtype)) {
    fail(loc, std::string(op_name(op)) + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported");
  }
  if (t->rank() == 0) fail(loc, std::string(op_name(op)) + " of a 0-d tensor is not supported");
  int64_t d = norm_dim(dim, t->rank(), loc);
  if (traced(in, {t}, loc)) {
    Attr a;
    a.ints = {d};
    return from_node(in, in.graph->make(op, t->dtype, t->shape, {t->node}, a, loc));
  }
  return shape_only(in, t->shape, t->dtype);
}

Value t_gelu(Interp& in, const Value& x, const std::string& approximate, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "gelu", loc);
  if (approximate != "none" && approximate != "tanh") {
    fail(loc, "gelu: approximate must be 'none' or 'tanh', got '" + approximate + "'");
  }
  if (!is_floating(t->dtype))
    fail(loc, std::string("gelu of a ") + torch_dtype_name(t->dtype) + " tensor is not supported");
  if (traced(in, {t}, loc)) {
    Attr a;
    a.str = approximate;
    return from_node(in, in.graph->make(Op::Gelu, t->dtype, t->shape, {t->node}, a, loc));
  }
  return shape_only(in, t->shape, t->dtype);
}

Value t_silu(Interp& in, const Value& x, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "silu", loc);
  if (!is_floating(t->dtype))
    fail(loc, std::string("silu of a ") + torch_dtype_name(t->dtype) + " tensor is not supported");
  if (traced(in, {t}, loc)) return from_node(in, in.graph->make(Op::Silu, t->dtype, t->shape, {t->node}, {}, loc));
  return shape_only(in, t->shape, t->dtype);
}

Value t_activation(Interp& in, Op op, const Value& x, Attr attr, SourceLoc loc) {
  TensorObj* t = need_tensor(x, op_name(op), loc);
  if (!is_floating(t->dtype))
    fail(loc, std::string(op_name(op)) + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported");
  if (traced(in, {t}, loc)) return from_node(in, in.graph->make(op, t->dtype, t->shape, {t->node}, attr, loc));
  return shape_only(in, t->shape, t->dtype);
}

namespace {

// v as a scalar argument of a kernel over a `t` tensor sees it: rounded to float32, then to the 16-bit type's
// nearest value (ties to even; past its largest finite value, infinity), as c10's conversions round.
double round_to_type(double v, DType t) {
  const double f = static_cast<float>(v);
  if ((t != DType::Float16 && t != DType::BFloat16) || !std::isfinite(f) || f == 0.0) return f;
  const bool half = t == DType::Float16;
  const int mantissa_bits = half ? 10 : 7, min_exponent = half ? -14 : -126;
  const double largest = half ? 65504.0 : 3.3895313892515355e+38;
  int e = 0;
  std::frexp(f, &e);  // f = m * 2^e, 0.5 <= |m| < 1: the leading bit is 2^(e - 1)
  const double ulp = std::ldexp(1.0, std::max(e - 1, min_exponent) - mantissa_bits);
  const double r = std::nearbyint(f / ulp) * ulp;  // (the default rounding mode: to nearest, ties to even)
  return std::fabs(r) > largest ? std::copysign(INFINITY, r) : r;
}

}  // namespace

// ATen's prelu: input > 0 ? input : weight * input, the weight broadcast along dim 1 (the channels).
Value t_prelu(Interp& in, const Value& x, const Value& weight, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "prelu", loc);
  TensorObj* w = need_tensor(weight, "prelu weight", loc);
  if (!is_floating(t->dtype)) fail(loc, std::string("prelu of a ") + torch_dtype_name(t->dtype) + " tensor is not supported");
  if (w->dtype != t->dtype) {
    fail(loc, std::string("prelu: weight of type ") + torch_dtype_name(w->dtype) + " for an input of type " +
                  torch_dtype_name(t->dtype) + " (eager PyTorch requires one type)");
  }
  int64_t channels = t->rank() >= 2 ? t->shape[1] : 1, n = numel(w->shape);
  if (n != 1 && n != channels) {
    fail(loc, "prelu: Mismatch of parameter numbers and input channel size. Found parameter numbers = " +
                  std::to_string(n) + " and channel size = " + std::to_string(channels) + ".");
  }
  std::vector<int64_t> ws(static_cast<size_t>(std::max(t->rank() - 1, 0)), 1);
  if (!ws.empty()) ws[0] = n;
  Value wb = t_reshape(in, weight, ws, loc);
  return t_where(in, t_binary(in, Op::Gt, x, Value::floating(0.0), loc), x, t_binary(in, Op::Mul, wb, x, loc), loc);
}

// F.glu: a * sigmoid(b) of x's two halves along dim, in float32 and rounded once (ATen's kernel computes in opmath).
Value t_glu(Interp& in, const Value& x, int64_t dim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "glu", loc);
  if (!is_floating(t->dtype)) fail(loc, std::string("glu of a ") + torch_dtype_name(t->dtype) + " tensor is not supported");
  if (t->rank() == 0) fail(loc, "glu of a 0-d tensor is not defined (it halves a dimension)");
  int64_t d = norm_dim(dim, t->rank(), loc);
  int64_t n = t->shape[static_cast<size_t>(d)];
  if (n % 2 != 0) {
    fail(loc, "glu: halving dimension must be even, but dimension " + std::to_string(d) + " is size " +
                  std::to_string(n));
  }
  Value a = t_narrow(in, x, d, 0, n / 2, loc), b = t_narrow(in, x, d, n / 2, n / 2, loc);
  if (t->dtype != DType::Float32) a = t_cast(in, a, DType::Float32, loc), b = t_cast(in, b, DType::Float32, loc);
  Value r = t_binary(in, Op::Mul, a, t_unary(in, Op::Sigmoid, b, loc), loc);
  return t->dtype != DType::Float32 ? t_cast(in, r, t->dtype, loc) : r;
}

const std::vector<ActivationSpec>& activation_specs() {
  static const std::vector<ActivationSpec> specs = {
      {"leaky_relu", "LeakyReLU", {{"negative_slope", 0.01}}, true},
      {"elu", "ELU", {{"alpha", 1.0}}, true},
      {"selu", "SELU", {}, true},
      {"celu", "CELU", {{"alpha", 1.0}}, true},
      {"hardsigmoid", "Hardsigmoid", {}, true},
      {"hardswish", "Hardswish", {}, true},
      {"hardtanh", "Hardtanh", {{"min_val", -1.0}, {"max_val", 1.0}}, true},
      {"relu6", "ReLU6", {}, true},
      {"softplus", "Softplus", {{"beta", 1.0}, {"threshold", 20.0}}, false},
      {"softsign", "Softsign", {}, false},
      {"mish", "Mish", {}, true},
      {"logsigmoid", "LogSigmoid", {}, false},
      {"hardshrink", "Hardshrink", {{"lambd", 0.5}}, false},
      {"softshrink", "Softshrink", {{"lambd", 0.5}}, false},
      {"tanhshrink", "Tanhshrink", {}, false},
      // (no defaults in PyTorch: NaN marks a missing one)
      {"threshold", "Threshold", {{"threshold", std::nan("")}, {"value", std::nan("")}}, true},
  };
  return specs;
}

const ActivationSpec* find_activation_module(const std::string& module) {
  for (const auto& s : activation_specs()) {
    if (module == s.module) return &s;
  }
  return nullptr;
}

Value t_named_activation(Interp& in, const ActivationSpec& spec, const Value& x, const std::vector<double>& opts,
                         SourceLoc loc) {
  std::string fn = spec.function;
  Attr a;
  if (fn == "leaky_relu") {
    a.floats = {opts[0]};
    return t_activation(in, Op::LeakyRelu, x, a, loc);
  }
  if (fn == "elu" || fn == "selu" || fn == "celu") {
    // PyTorch's constants for selu (torch/nn/modules/activation.py documents them to these digits).
    constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
    constexpr double kSeluScale = 1.0507009873554804934193349852946;
    if (fn == "elu") a.floats = {opts[0], 1.0, 1.0};
    if (fn == "selu") a.floats = {kSeluAlpha, kSeluScale, 1.0};
    if (fn == "celu") {
      if (opts[0] == 0.0) fail(loc, "celu: alpha must not be 0 (it divides the input)");
      a.floats = {opts[0], 1.0, 1.0 / opts[0]};
    }
    return t_activation(in, Op::Elu, x, a, loc);
  }
  if (fn == "hardtanh" || fn == "relu6") {
    // hardtanh(x, lo, hi) => clamp(x, lo, hi): exact in every dtype, so no composite is needed.
    double lo = fn == "relu6" ? 0.0 : opts[0], hi = fn == "relu6" ? 6.0 : opts[1];
    if (lo > hi) {
      fail(loc, "hardtanh: min_val (" + literal_repr(Value::floating(lo)) + ") must not exceed max_val (" +
                    literal_repr(Value::floating(hi)) + ")");
    }
    TensorObj* t = need_tensor(x, fn, loc);
    if (!is_floating(t->dtype)) fail(loc, fn + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported");
    return t_clamp(in, x, Value::floating(lo), Value::floating(hi), loc);
  }
  if (fn == "threshold") {
    // x <= threshold ? value : x. ATen's CUDA kernel converts the threshold to x's type first, its CPU kernel
    // compares 16-bit x with the float32 threshold: they differ only where rounding to 16 bits moves the threshold
    // up onto the next 16-bit value (which x can then equal).
    for (size_t i = 0; i < 2; ++i) {
      if (std::isnan(opts[i])) fail(loc, std::string("threshold() missing its argument ") + spec.options[i].first);
    }
    TensorObj* t = need_tensor(x, fn, loc);
    if (!is_floating(t->dtype)) fail(loc, fn + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported");
    const double th = static_cast<float>(opts[0]), rounded = round_to_type(th, t->dtype);
    if (std::fabs(rounded) > std::fabs(th)) {
      fail(loc, "threshold " + literal_repr(Value::floating(opts[0])) + " of a " + torch_dtype_name(t->dtype) +
                    " tensor: it rounds to " + literal_repr(Value::floating(rounded)) + ", which eager PyTorch " +
                    "compares with on CUDA but not on the CPU (results differ where x equals it); not supported");
    }
    Value le = t_binary(in, Op::Le, x, Value::floating(th), loc);
    return t_where(in, le, Value::floating(opts[1]), x, loc);
  }
  if (fn == "hardshrink" || fn == "softshrink" || fn == "tanhshrink") {
    TensorObj* t = need_tensor(x, fn, loc);
    if (!is_floating(t->dtype)) fail(loc, fn + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported");
    if (fn == "tanhshrink") {  // x - tanh(x) in float32, rounded once (ATen's kernels compute in opmath)
      Value v = t->dtype == DType::Float32 ? x : t_cast(in, x, DType::Float32, loc);
      Value r = t_binary(in, Op::Sub, v, t_unary(in, Op::Tanh, v, loc), loc);
      return t->dtype == DType::Float32 ? r : t_cast(in, r, t->dtype, loc);
    }
    // ATen's kernels compare x with lambd converted to x's type (CPU and CUDA alike only where that is exact):
    //   hardshrink: -lambd <= x <= lambd ? 0 : x;  softshrink: x > lambd ? x - lambd : x < -lambd ? x + lambd : 0
    // (NaN stays NaN: x * 0).
    const double l = static_cast<float>(opts[0]);
    if (fn == "softshrink" && l < 0) fail(loc, "softshrink: lambda must be greater or equal to 0, but found to be " +
                                                   literal_repr(Value::floating(opts[0])));
    if (round_to_type(l, t->dtype) != l) {
      fail(loc, fn + " of a " + torch_dtype_name(t->dtype) + " tensor with lambd=" + literal_repr(Value::floating(opts[0])) +
                    ", which that type does not hold exactly (eager's CPU and CUDA kernels compare differently there): "
                    "not supported");
    }
    Value zero = t_binary(in, Op::Mul, x, Value::floating(0.0), loc);
    Value above = t_binary(in, Op::Gt, x, Value::floating(l), loc), below = t_binary(in, Op::Lt, x, Value::floating(-l), loc);
    if (fn == "hardshrink") return t_where(in, t_binary(in, Op::LogicalOr, above, below, loc), x, zero, loc);
    return t_where(in, above, t_binary(in, Op::Sub, x, Value::floating(l), loc),
                   t_where(in, below, t_binary(in, Op::Add, x, Value::floating(l), loc), zero, loc), loc);
  }
  if (fn == "softplus") {
    if (opts[0] == 0.0) fail(loc, "softplus: beta must not be 0 (it divides the result)");
    a.floats = {opts[0], opts[1]};
    return t_activation(in, Op::Softplus, x, a, loc);
  }
  const std::pair<const char*, Op> plain_ops[] = {{"hardsigmoid", Op::Hardsigmoid},
                                                  {"hardswish", Op::Hardswish},
                                                  {"softsign", Op::Softsign},
                                                  {"mish", Op::Mish},
                                                  {"logsigmoid", Op::LogSigmoid}};
  for (const auto& [name, op] : plain_ops) {
    if (fn == name) return t_activation(in, op, x, a, loc);
  }
  ::tz::internal_error("activation " + fn + " has no lowering", __FILE__, __LINE__);
}

Value t_layer_norm(Interp& in, const Value& x, const std::vector<int64_t>& normalized_shape, const Value& weight,
                   const Value& bias, double eps, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "layer_norm", loc);
  if (!is_floating(t->dtype))
    fail(loc, std::string("layer_norm of a ") + torch_dtype_name(t->dtype) + " tensor is not supported");
  int k = static_cast<int>(normalized_shape.size());
  bool trailing = k >= 1 && k <= t->rank();
  for (int i = 0; trailing && i < k; ++i) trailing = t->shape[t->rank() - k + i] == normalized_shape[i];
  if (!trailing) {
    fail(loc, "layer_norm: normalized_shape " + shape_text(normalized_shape) +
                  " does not match the trailing dims of the input " + shape_text(t->shape));
  }
  for (const Value* p : {&weight, &bias}) {
    if (p->is_none()) continue;
    if (need_tensor(*p, "layer_norm weight and bias", loc)->shape != Shape(normalized_shape)) {
      fail(loc, "layer_norm: weight and bias must have the shape " + shape_text(normalized_shape) + ", got " +
                    shape_text(tensor_of(*p)->shape));
    }
  }
  DType out = t->dtype;
  Value xs = is_floating(out) && out != DType::Float32 ? t_cast(in, x, DType::Float32, loc) : x;
  Value y;
  if (traced(in, {tensor_of(xs)}, loc)) {
    Attr a;
    for (int i = 0; i < k; ++i) a.ints.push_back(t->rank() - k + i);
    a.floats = {eps};
    TensorObj* ts = tensor_of(xs);
    y = from_node(in, in.graph->make(Op::LayerNorm, ts->dtype, ts->shape, {ts->node}, a, loc));
  } else {
    y = shape_only(in, t->shape, DType::Float32);
  }
  if (!weight.is_none()) y = t_binary(in, Op::Mul, y, weight, loc);
  if (!bias.is_none()) y = t_binary(in, Op::Add, y, bias, loc);
  return t_cast(in, y, out, loc);
}

namespace {

Value to_f32(Interp& in, const Value& x, SourceLoc loc) {
  DType t = tensor_of(x)->dtype;
  return is_floating(t) && t != DType::Float32 ? t_cast(in, x, DType::Float32, loc) : x;
}

// Mean and biased variance of `x` over `axes`, in float32 with the reduced dims kept (the norm_mean and
// norm_var composites; decompose computes both in one pass over x).
std::pair<Value, Value> norm_stats(Interp& in, const Value& x, const std::vector<int64_t>& axes, SourceLoc loc) {
  TensorObj* t = tensor_of(x);
  Shape s = t->shape;
  for (auto a : axes) s[a] = 1;
  if (!traced(in, {t}, loc)) return {shape_only(in, s, DType::Float32), shape_only(in, s, DType::Float32)};
  Attr a;
  a.ints = axes;
  return {from_node(in, in.graph->make(Op::NormMean, DType::Float32, s, {t->node}, a, loc)),
          from_node(in, in.graph->make(Op::NormVar, DType::Float32, s, {t->node}, a, loc))};
}

// A per-channel tensor (weight, bias, running statistic) of `count` elements, or none.
void check_channels(const Value& v, int64_t count, const std::string& what, SourceLoc loc) {
  if (v.is_none()) return;
  TensorObj* t = need_tensor(v, what, loc);
  if (t->rank() != 1 || t->shape[0] != count) {
    fail(loc, what + " should have shape [" + std::to_string(count) + "], got " + shape_text(t->shape));
  }
}

// The module buffer a forward tensor is, for an in-place update (empty when it is not one).
std::string buffer_path(const Value& v) {
  const TensorObj* t = tensor_of(v);
  return t->node && t->node->op == Op::Param ? t->node->attr.str : "";
}

}  // namespace

// torch.var / torch.std: the normalisations' variance (norm_var: float32, one pass over x, long rows combined
// exactly), scaled by n / (n - correction), its square root for std, in x's type, reduced dims dropped unless keepdim.
// The mean beside it (torch.var_mean / std_mean) is the same pass's norm_mean, as ATen's var_mean takes both from
// one Welford pass.
std::pair<Value, Value> t_var_mean(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims,
                                   double correction, bool keepdim, bool std_dev, SourceLoc loc) {
  const std::string name = std_dev ? "std" : "var";
  TensorObj* t = need_tensor(x, name, loc);
  if (!is_floating(t->dtype)) {  // (float64 tensors are rejected where they arise)
    fail(loc, name + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported (float32, float16, bfloat16)");
  }
  std::vector<int64_t> axes;
  if (dims && !dims->empty()) {
    axes = norm_dims(*dims, t->rank(), loc);
  } else {
    for (int i = 0; i < t->rank(); ++i) axes.push_back(i);
  }
  int64_t n = 1;
  for (int64_t a : axes) n *= t->shape[static_cast<size_t>(a)];
  if (static_cast<double>(n) - correction <= 0.0) {
    std::string c = correction == static_cast<double>(static_cast<int64_t>(correction))
                        ? std::to_string(static_cast<int64_t>(correction)) : std::to_string(correction);
    fail(loc, name + " over " + std::to_string(n) + " value(s) with correction " + c +
                  " divides by zero (PyTorch returns inf or nan): not supported");
  }
  auto [m, v] = norm_stats(in, x, axes, loc);  // (an unused node is dropped with the graph's dead nodes)
  if (correction != 0.0) {
    v = t_binary(in, Op::Mul, v, Value::floating(static_cast<double>(n) / (static_cast<double>(n) - correction)), loc);
  }
  if (std_dev) v = t_unary(in, Op::Sqrt, v, loc);
  for (Value* r : {&v, &m}) {
    if (t->dtype != DType::Float32) *r = t_cast(in, *r, t->dtype, loc);
    if (!keepdim) *r = t_reshape(in, *r, reduced_shape(t->shape, axes, false), loc);
  }
  return {v, m};
}

Value t_var(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims, double correction, bool keepdim,
            bool std_dev, SourceLoc loc) {
  return t_var_mean(in, x, std::move(dims), correction, keepdim, std_dev, loc).first;
}

// torch.logsumexp as ATen computes it (ReduceOps.cpp): m = amax(x, dims, keepdim=True) with its infinite values
// replaced by 0 (so a slice of -inf gives log(0) = -inf and one holding +inf gives inf, not NaN), then
// log(sum(exp(x - m))) + m, each step in x's type (integers and bools: the default float type), so that a 16-bit
// input is rounded where eager rounds it.
Value t_logsumexp(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims, bool keepdim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "logsumexp", loc);
  if (numel(t->shape) == 0) fail(loc, "logsumexp of an empty tensor is not supported");
  Value v = is_floating(t->dtype) ? x : t_cast(in, x, DType::Float32, loc);
  std::vector<int64_t> axes;
  if (dims && !dims->empty()) {
    axes = norm_dims(*dims, t->rank(), loc);
  } else {
    for (int i = 0; i < t->rank(); ++i) axes.push_back(i);
  }
  Value m = t_reduce(in, Op::Max, v, axes, true, loc);
  Value infinite = t_binary(in, Op::Eq, t_unary(in, Op::Abs, m, loc), Value::floating(INFINITY), loc);
  m = t_where(in, infinite, Value::floating(0.0), m, loc);
  Value s = t_reduce(in, Op::Sum, t_unary(in, Op::Exp, t_binary(in, Op::Sub, v, m, loc), loc), axes, keepdim, loc);
  if (!keepdim) m = t_reshape(in, m, reduced_shape(t->shape, axes, false), loc);
  return t_binary(in, Op::Add, t_unary(in, Op::Log, s, loc), m, loc);
}

void t_update_buffer(Interp& in, const Value& buffer, const Value& value, const std::string& what, SourceLoc loc) {
  if (in.phase != Phase::Forward) return;
  std::string path = buffer_path(buffer);
  if (path.empty()) fail(loc, what + " must be a buffer of the module to be updated in place");
  for (const auto& u : in.graph->updates) {
    if (u.path == path) fail(loc, "the buffer '" + path + "' is updated twice in one forward(): not supported");
  }
  Value v = t_cast(in, value, tensor_of(buffer)->dtype, loc);
  in.graph->updates.push_back({path, tensor_of(v)->node});
}

Value t_batch_norm(Interp& in, const Value& x, const Value& running_mean, const Value& running_var,
                   const Value& weight, const Value& bias, bool training, const Value& momentum, double eps,
                   SourceLoc loc) {
  TensorObj* t = need_tensor(x, "batch_norm", loc);
  if (!is_floating(t->dtype))
    fail(loc, std::string("batch_norm of a ") + torch_dtype_name(t->dtype) + " tensor is not supported");
  if (t->rank() < 2) fail(loc, "batch_norm expects an input with at least 2 dims, got " + shape_text(t->shape));
  if (!(eps > 0)) fail(loc, "batch_norm eps must be positive, but got " + literal_repr(Value::floating(eps)));
  int64_t c = t->shape[1];
  check_channels(running_mean, c, "batch_norm running_mean", loc);
  check_channels(running_var, c, "batch_norm running_var", loc);
  check_channels(weight, c, "batch_norm weight", loc);
  check_channels(bias, c, "batch_norm bias", loc);
  Shape bshape(t->shape.size(), 1);  // [1, C, 1, ...]: per-channel values broadcast over the input
  bshape[1] = c;
  // Per-channel values are computed on [C] (in the statistics kernel, or recomputed from the buffers), and
  // the output is one multiply-add per element: y = x * scale + shift.
  Value mean, var;
  if (training) {
    int64_t count = numel(t->shape) / std::max<int64_t>(c, 1);
    if (count <= 1) {
      fail(loc, "batch_norm in training mode expects more than 1 value per channel, got input of shape " +
                    shape_text(t->shape));
    }
    std::vector<int64_t> axes;
    for (int d = 0; d < t->rank(); ++d) if (d != 1) axes.push_back(d);
    auto [m, v] = norm_stats(in, x, axes, loc);
    mean = t_reshape(in, m, {c}, loc);
    var = t_reshape(in, v, {c}, loc);
    if (running_mean.is_none() != running_var.is_none())
      fail(loc, "batch_norm: running_mean and running_var must both be given or both be None");
    if (!running_mean.is_none()) {
      // running = momentum * batch statistic + (1 - momentum) * running   (the variance unbiased)
      Value keep = momentum.is(Kind::Tensor) ? t_binary(in, Op::Sub, Value::floating(1.0), momentum, loc)
                                             : Value::floating(1.0 - momentum.as_double());
      Value unbiased = t_binary(in, Op::Mul, var,
                                Value::floating(static_cast<double>(count) / static_cast<double>(count - 1)), loc);
      Value new_mean = t_binary(in, Op::Add, t_binary(in, Op::Mul, mean, momentum, loc),
                                t_binary(in, Op::Mul, to_f32(in, running_mean, loc), keep, loc), loc);
      Value new_var = t_binary(in, Op::Add, t_binary(in, Op::Mul, unbiased, momentum, loc),
                               t_binary(in, Op::Mul, to_f32(in, running_var, loc), keep, loc), loc);
      t_update_buffer(in, running_mean, new_mean, "batch_norm running_mean", loc);
      t_update_buffer(in, running_var, new_var, "batch_norm running_var", loc);
    }
  } else {
    if (running_mean.is_none() || running_var.is_none())
      fail(loc, "batch_norm in evaluation mode needs running_mean and running_var");
    mean = to_f32(in, running_mean, loc);
    var = to_f32(in, running_var, loc);
  }
  Value scale = t_unary(in, Op::Rsqrt, t_binary(in, Op::Add, var, Value::floating(eps), loc), loc);
  if (!weight.is_none()) scale = t_binary(in, Op::Mul, scale, to_f32(in, weight, loc), loc);
  Value shift = t_binary(in, Op::Mul, mean, scale, loc);
  shift = bias.is_none() ? t_unary(in, Op::Neg, shift, loc) : t_binary(in, Op::Sub, to_f32(in, bias, loc), shift, loc);
  Value y = t_binary(in, Op::Add, t_binary(in, Op::Mul, to_f32(in, x, loc), t_reshape(in, scale, bshape, loc), loc),
                     t_reshape(in, shift, bshape, loc), loc);
  return t_cast(in, y, t->dtype, loc);
}

Value t_group_norm(Interp& in, const Value& x, int64_t groups, const Value& weight, const Value& bias, double eps,
                   const std::string& what, SourceLoc loc) {
  TensorObj* t = need_tensor(x, what, loc);
  if (!is_floating(t->dtype))
    fail(loc, what + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported");
  if (t->rank() < 2) fail(loc, what + " expects an input with at least 2 dims, got " + shape_text(t->shape));
  int64_t n = t->shape[0], c = t->shape[1];
  if (groups <= 0 || c % groups != 0) {
    fail(loc, what + ": the number of channels (" + std::to_string(c) + ") is not divisible by num_groups (" +
                  std::to_string(groups) + ")");
  }
  check_channels(weight, c, what + " weight", loc);
  check_channels(bias, c, what + " bias", loc);
  int64_t spatial = numel(t->shape) / std::max<int64_t>(n * c, 1);
  // PyTorch's own checks (F.group_norm's _verify_batch_size, F.instance_norm's _verify_spatial_size)
  if (what == "group_norm" && n * (c / groups) * spatial == 1) {
    fail(loc, "group_norm: expected more than 1 value per channel when training, got input size " +
                  shape_text(t->shape));
  }
  if (what == "instance_norm" && spatial == 1) {
    fail(loc, "instance_norm: expected more than 1 spatial element when training, got input size " +
                  shape_text(t->shape));
  }
  // Instance norm (one group per channel) and a single group reduce over trailing dims of x itself, so that
  // ops after the norm fuse with it; other groups view x as [N, G, C/G, S]. Per-channel values broadcast.
  bool direct = groups == c || groups == 1;
  Value xr = direct ? x : t_reshape(in, x, {n, groups, c / groups, spatial}, loc);
  std::vector<int64_t> axes;
  for (int d = direct ? (groups == c ? 2 : 1) : 2; d < tensor_of(xr)->rank(); ++d) axes.push_back(d);
  Value y;
  if (axes.empty()) {
    // One group per channel of an input without spatial dims normalises single values, as PyTorch does: the mean
    // is the value itself and the variance 0, so y = (x - x) / sqrt(eps): 0, or NaN where x is inf or NaN.
    Value xf = to_f32(in, xr, loc);
    y = t_binary(in, Op::Mul, t_binary(in, Op::Sub, xf, xf, loc), Value::floating(1.0 / std::sqrt(eps)), loc);
  } else {
    auto [mean, var] = norm_stats(in, xr, axes, loc);
    Value rstd = t_unary(in, Op::Rsqrt, t_binary(in, Op::Add, var, Value::floating(eps), loc), loc);
    y = t_binary(in, Op::Mul, t_binary(in, Op::Sub, to_f32(in, xr, loc), mean, loc), rstd, loc);
  }
  Shape pshape = {groups, c / groups, 1};
  if (direct) {
    pshape.assign(static_cast<size_t>(t->rank() - 1), 1);
    pshape[0] = c;
  }
  auto per_channel = [&](const Value& v) { return t_reshape(in, v, pshape, loc); };
  if (!weight.is_none()) y = t_binary(in, Op::Mul, y, per_channel(weight), loc);
  if (!bias.is_none()) y = t_binary(in, Op::Add, y, per_channel(bias), loc);
  return t_reshape(in, t_cast(in, y, t->dtype, loc), t->shape, loc);
}

Value t_rms_norm(Interp& in, const Value& x, const std::vector<int64_t>& normalized_shape, const Value& weight,
                 std::optional<double> eps, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "rms_norm", loc);
  if (!is_floating(t->dtype))
    fail(loc, std::string("rms_norm of a ") + torch_dtype_name(t->dtype) + " tensor is not supported");
  int k = static_cast<int>(normalized_shape.size());
  bool trailing = k >= 1 && k <= t->rank();
  for (int i = 0; trailing && i < k; ++i) trailing = t->shape[t->rank() - k + i] == normalized_shape[i];
  if (!trailing) {
    fail(loc, "rms_norm: normalized_shape " + shape_text(normalized_shape) +
                  " does not match the trailing dims of the input " + shape_text(t->shape));
  }
  if (!weight.is_none() && need_tensor(weight, "rms_norm weight", loc)->shape != Shape(normalized_shape)) {
    fail(loc, "rms_norm: weight must have the shape " + shape_text(normalized_shape) + ", got " +
                  shape_text(tensor_of(weight)->shape));
  }
  // eps defaults to float32's machine epsilon (the type PyTorch computes in, half inputs included).
  double e = eps ? *eps : 1.1920928955078125e-07;
  std::vector<int64_t> dims;
  for (int i = 0; i < k; ++i) dims.push_back(t->rank() - k + i);
  Value xs = to_f32(in, x, loc);
  Value ms = t_reduce(in, Op::Mean, t_binary(in, Op::Mul, xs, xs, loc), dims, true, loc);
  Value y = t_binary(in, Op::Mul, xs, t_unary(in, Op::Rsqrt, t_binary(in, Op::Add, ms, Value::floating(e), loc), loc), loc);
  if (!weight.is_none()) y = t_binary(in, Op::Mul, y, to_f32(in, weight, loc), loc);
  return t_cast(in, y, t->dtype, loc);
}

Value t_norm(Interp& in, const Value& x, double p, std::optional<std::vector<int64_t>> dims, bool keepdim,
             const std::string& what, SourceLoc loc) {
  TensorObj* t = need_tensor(x, what, loc);
  if (!is_floating(t->dtype))
    fail(loc, what + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported (a floating dtype is needed)");
  Value xs = to_f32(in, x, loc);
  Value r;
  if (p == 2.0) {
    r = t_unary(in, Op::Sqrt, t_reduce(in, Op::Sum, t_binary(in, Op::Mul, xs, xs, loc), dims, keepdim, loc), loc);
  } else if (p == 1.0) {
    r = t_reduce(in, Op::Sum, t_unary(in, Op::Abs, xs, loc), dims, keepdim, loc);
  } else if (std::isinf(p)) {
    r = t_reduce(in, p > 0 ? Op::Max : Op::Min, t_unary(in, Op::Abs, xs, loc), dims, keepdim, loc);
  } else if (p > 0) {
    Value powered = t_binary(in, Op::Pow, t_unary(in, Op::Abs, xs, loc), Value::floating(p), loc);
    r = t_binary(in, Op::Pow, t_reduce(in, Op::Sum, powered, dims, keepdim, loc), Value::floating(1.0 / p), loc);
  } else {
    fail(loc, what + " with p = " + literal_repr(Value::floating(p)) + " is not supported (p > 0 or inf)");
  }
  return t_cast(in, r, t->dtype, loc);
}

Value t_reshape(Interp& in, const Value& x, std::vector<int64_t> sizes, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "reshape", loc);
  int64_t n = numel(t->shape), known = 1;
  int infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      if (infer >= 0) fail(loc, "reshape: only one dimension can be inferred (-1)");
      infer = static_cast<int>(i);
    } else if (sizes[i] < 0) {
      fail(loc, "reshape: invalid size " + std::to_string(sizes[i]));
    } else if (__builtin_mul_overflow(known, sizes[i], &known)) {
      fail(loc, "reshape: the size " + shape_text(sizes) + " is too large");
    }
  }
  auto invalid = [&] {
    fail(loc, "shape " + shape_text(sizes) + " is invalid for input of size " + std::to_string(n) + " (shape " +
                  shape_text(t->shape) + ")");
  };
  if (infer >= 0) {
    if (known == 0 || n % known != 0) invalid();
    sizes[static_cast<size_t>(infer)] = n / known;
  } else if (known != n) {
    invalid();
  }
  if (traced(in, {t}, loc)) return from_node(in, in.graph->reshape(t->node, sizes, loc));
  return shape_only(in, sizes, t->dtype);
}

Value t_permute(Interp& in, const Value& x, std::vector<int64_t> perm, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "permute", loc);
  if (static_cast<int>(perm.size()) != t->rank()) {
    fail(loc, "permute: the tensor has " + std::to_string(t->rank()) + " dims but " + std::to_string(perm.size()) +
                  " were given");
  }
  std::vector<char> seen(perm.size(), 0);
  for (auto& p : perm) {
    p = norm_dim(p, t->rank(), loc);
    if (seen[static_cast<size_t>(p)]) fail(loc, "permute: dim " + std::to_string(p) + " is repeated");
    seen[static_cast<size_t>(p)] = 1;
  }
  if (t->rank() == 0) return x;
  if (traced(in, {t}, loc)) return from_node(in, in.graph->permute(t->node, perm, loc));
  Shape out;
  for (auto p : perm) out.push_back(t->shape[static_cast<size_t>(p)]);
  Value result = shape_only(in, out, t->dtype);
  // The layout: a permutation of a permutation of a fresh tensor is one.
  std::vector<int64_t> composed;
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) {
    composed.push_back(t->perm.empty() ? perm[i] : t->perm[static_cast<size_t>(perm[i])]);
    identity = identity && composed.back() == static_cast<int64_t>(i);
  }
  tensor_of(result)->strided = t->strided;
  tensor_of(result)->perm = identity ? std::vector<int64_t>{} : composed;
  return result;
}

Value t_transpose(Interp& in, const Value& x, int64_t a, int64_t b, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "transpose", loc);
  a = norm_dim(a, t->rank(), loc);
  b = norm_dim(b, t->rank(), loc);
  if (t->rank() < 2) return x;
  std::vector<int64_t> perm;
  for (int i = 0; i < t->rank(); ++i) perm.push_back(i);
  std::swap(perm[static_cast<size_t>(a)], perm[static_cast<size_t>(b)]);
  return t_permute(in, x, perm, loc);
}

Value t_expand(Interp& in, const Value& x, std::vector<int64_t> sizes, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "expand", loc);
  int n = static_cast<int>(sizes.size()), r = t->rank();
  if (n < r) {
    fail(loc, "expand: " + std::to_string(n) + " sizes given for a tensor of rank " + std::to_string(r) +
                  " (at least as many as its dims are needed)");
  }
  Shape target(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    int xi = i - (n - r);
    int64_t want = sizes[static_cast<size_t>(i)];
    if (xi < 0) {
      if (want < 0) fail(loc, "expand: -1 is not allowed for a new leading dimension");
      target[static_cast<size_t>(i)] = want;
      continue;
    }
    int64_t have = t->shape[static_cast<size_t>(xi)];
    if (want == -1 || want == have) {
      target[static_cast<size_t>(i)] = have;
    } else if (have == 1 && want >= 0) {
      target[static_cast<size_t>(i)] = want;
    } else {
      fail(loc, "expand: the size " + std::to_string(have) + " of dim " + std::to_string(xi) + " of " +
                    shape_text(t->shape) + " cannot be expanded to " + std::to_string(want) + " (target " +
                    shape_text(sizes) + ")");
    }
  }
  check_shape(target, loc);
  if (traced(in, {t}, loc)) {
    const Node* node = t->node;
    if (n > r) {
      Shape padded(static_cast<size_t>(n - r), 1);
      padded.insert(padded.end(), t->shape.begin(), t->shape.end());
      node = in.graph->reshape(node, padded, loc);
    }
    return from_node(in, in.graph->expand(node, target, loc));
  }
  Value out = shape_only(in, target, t->dtype);
  if (numel(target) != numel(t->shape)) tensor_of(out)->strided = true;  // (stride 0 along the expanded dims)
  return out;
}

Value t_unsqueeze(Interp& in, const Value& x, int64_t dim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "unsqueeze", loc);
  int64_t d = norm_dim(dim, t->rank() + 1, loc);
  Shape s = t->shape;
  s.insert(s.begin() + d, 1);
  return t_reshape(in, x, s, loc);
}

Value t_squeeze(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "squeeze", loc);
  std::vector<int64_t> drop;
  if (dims) {
    for (int64_t d : *dims) drop.push_back(norm_dim(d, t->rank(), loc));
  } else {
    for (int i = 0; i < t->rank(); ++i) drop.push_back(i);
  }
  Shape s;
  for (int i = 0; i < t->rank(); ++i) {
    bool dropped = std::find(drop.begin(), drop.end(), i) != drop.end() && t->shape[static_cast<size_t>(i)] == 1;
    if (!dropped) s.push_back(t->shape[static_cast<size_t>(i)]);
  }
  return t_reshape(in, x, s, loc);
}

Value t_flatten(Interp& in, const Value& x, int64_t start, int64_t end, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "flatten", loc);
  if (t->rank() == 0) return t_reshape(in, x, {1}, loc);
  start = norm_dim(start, t->rank(), loc);
  end = norm_dim(end, t->rank(), loc);
  if (start > end) fail(loc, "flatten: start_dim cannot come after end_dim");
  Shape s(t->shape.begin(), t->shape.begin() + start);
  int64_t n = 1;
  for (int64_t i = start; i <= end; ++i) n *= t->shape[static_cast<size_t>(i)];
  s.push_back(n);
  s.insert(s.end(), t->shape.begin() + end + 1, t->shape.end());
  return t_reshape(in, x, s, loc);
}

Value t_index(Interp& in, const Value& x, const Value& index, SourceLoc loc) {
  // Basic indexing, which moves no data: None adds a dim, a slice narrows one (x[:, 1:], x[..., :-1],
  // x[:, ::2]), an integer selects one element of a dim and drops it, and ... stands for the dims not named.
  TensorObj* t = need_tensor(x, "indexing", loc);
  std::vector<Value> items = index.is(Kind::Tuple) ? items_of(index) : std::vector<Value>{index};
  // One integer index tensor (x[idx], x[:, idx]): the basic indexing of the other items with a full slice in its
  // place, then the slices at the positions it holds along the dim it lands on. PyTorch applies integers as
  // selects before the index tensor (x[0, :, idx] is x[0][:, idx]), and its negative indices count from the end.
  int tensors = 0;
  size_t at = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k].is(Kind::Tensor)) {
      ++tensors;
      at = k;
    }
  }
  if (tensors > 1) fail(loc, "indexing a tensor with more than one index tensor is not supported");
  if (tensors == 1) {
    DType it = tensor_of(items[at])->dtype;
    if (it == DType::Bool) {
      fail(loc, "indexing with a boolean mask gives a result whose size depends on the data: not supported "
                "(torch.where(mask, x, other) keeps the shape)");
    }
    if (!is_integral(it)) fail(loc, "tensors used as indices must be long, int or bool tensors, got " +
                                        std::string(torch_dtype_name(it)));
    std::vector<Value> basic = items;
    basic[at] = Value::of(Kind::Slice, in.heap.make<SliceObj>());
    Value cur = t_index(in, x, in.tuple(basic), loc);
    int consumed = 0;
    for (const Value& v : items) consumed += v.is(Kind::Int) || v.is(Kind::Slice) || v.is(Kind::Tensor);
    int64_t pos = 0;  // the dims the items before the index tensor leave
    for (size_t k = 0; k < at; ++k) {
      if (items[k].is_none() || items[k].is(Kind::Slice)) ++pos;
      else if (items[k].is(Kind::Ellipsis)) pos += t->rank() - consumed;
    }
    return t_take(in, cur, pos, items[at], true, "indexing", loc);
  }
  int consumed = 0, ellipses = 0;
  for (const Value& v : items) {
    if (v.is(Kind::Int) || v.is(Kind::Slice))
      ++consumed;
    else if (v.is(Kind::Ellipsis))
      ++ellipses;
    else if (!v.is_none()) {
      fail(loc, "indexing a tensor with a " + type_name(v) +
                    " is not supported (only None, slices, integers, ... and one integer tensor)");
    }
  }
  if (ellipses > 1) fail(loc, "an index can only have a single ellipsis ('...')");
  if (consumed > t->rank()) {
    fail(loc, "too many indices for a tensor of rank " + std::to_string(t->rank()));
  }
  // First narrow the indexed dims (an integer index to one element), then reshape to the result's dims.
  Value cur = x;
  std::vector<char> dropped(static_cast<size_t>(t->rank()), 0);
  int dim = 0;
  for (const Value& v : items) {
    if (v.is_none()) continue;
    if (v.is(Kind::Ellipsis)) {
      dim += t->rank() - consumed;
    } else if (v.is(Kind::Slice)) {
      auto* s = v.as<SliceObj>();
      int64_t step = s->step.is_none() ? 1 : to_int(s->step, "slice step", loc);
      std::optional<int64_t> lo, hi;
      if (!s->lower.is_none()) lo = to_int(s->lower, "slice start", loc);
      if (!s->upper.is_none()) hi = to_int(s->upper, "slice stop", loc);
      cur = t_slice(in, cur, dim++, lo, hi, step, loc);
    } else {
      int64_t size = t->shape[static_cast<size_t>(dim)];
      int64_t i = v.i < 0 ? v.i + size : v.i;
      if (i < 0 || i >= size)
        fail(loc, "index " + std::to_string(v.i) + " is out of range for a dim of size " + std::to_string(size));
      cur = t_slice(in, cur, dim, i, i + 1, 1, loc);
      dropped[static_cast<size_t>(dim++)] = 1;
    }
  }
  const Shape& narrowed = tensor_of(cur)->shape;
  Shape out;
  dim = 0;
  for (const Value& v : items) {
    if (v.is_none()) {
      out.push_back(1);
    } else if (v.is(Kind::Ellipsis)) {
      for (int k = 0; k < t->rank() - consumed; ++k) out.push_back(narrowed[static_cast<size_t>(dim++)]);
    } else {
      if (!dropped[static_cast<size_t>(dim)]) out.push_back(narrowed[static_cast<size_t>(dim)]);
      ++dim;
    }
  }
  while (dim < t->rank()) out.push_back(narrowed[static_cast<size_t>(dim++)]);
  return t_reshape(in, cur, out, loc);
}

namespace {

void need_index_dtype(const TensorObj* index, const std::string& name, SourceLoc loc) {
  if (index->dtype != DType::Int64 && index->dtype != DType::Int32) {
    fail(loc, name + "(): Expected dtype int32/int64 for index, got " + torch_dtype_name(index->dtype));
  }
}

}  // namespace

Value t_gather(Interp& in, const Value& x, int64_t dim, const Value& index, const std::string& name, SourceLoc loc) {
  TensorObj* t = need_tensor(x, name, loc);
  TensorObj* ti = need_tensor(index, name + " index", loc);
  dim = norm_dim(dim, t->rank(), loc);
  need_index_dtype(ti, name, loc);
  if (ti->rank() != t->rank()) {
    fail(loc, name + "(): Index tensor must have the same number of dimensions as input tensor (" +
                  shape_text(ti->shape) + " and " + shape_text(t->shape) + ")");
  }
  for (int d = 0; d < t->rank(); ++d) {
    if (d != dim && ti->shape[static_cast<size_t>(d)] > t->shape[static_cast<size_t>(d)]) {
      fail(loc, name + "(): Size does not match at dimension " + std::to_string(d) + " expected index " +
                    shape_text(ti->shape) + " to be no larger than self " + shape_text(t->shape) +
                    " apart from dimension " + std::to_string(dim));
    }
  }
  if (numel(ti->shape) == 0) fail(loc, name + ": the index is empty: tensors with no elements are not supported");
  if (t->rank() == 0) {  // a 0-d x at a 0-d index (which must be 0): read as one element of a [1] view
    Value one = t_gather(in, t_reshape(in, x, {1}, loc), 0, t_reshape(in, index, {1}, loc), name, loc);
    return t_reshape(in, one, {}, loc);
  }
  if (!traced(in, {t, ti}, loc)) return shape_only(in, ti->shape, t->dtype);
  return from_node(in, in.graph->gather(t->node, dim, ti->node, loc));
}

// x's slices at the index's positions are one gather over expanded views, along the index's last dim:
//   take(x [*pre, V, *post], dim, idx [*I, K]) => gather(x.view(*pre, 1.., V, *post).expand(*pre, *I, V, *post),
//                                                      dim + rank(idx) - 1, idx.view(1.., *I, K, 1..).expand(out))
Value t_take(Interp& in, const Value& x, int64_t dim, const Value& index, bool wrap, const std::string& name,
             SourceLoc loc) {
  TensorObj* t = need_tensor(x, name, loc);
  TensorObj* ti = need_tensor(index, name + " index", loc);
  if (t->rank() == 0) fail(loc, name + ": a 0-d tensor has no dim to index");
  dim = norm_dim(dim, t->rank(), loc);
  need_index_dtype(ti, name, loc);
  const Shape xs = t->shape, is = ti->shape;
  const int64_t size = xs[static_cast<size_t>(dim)];
  Value idx = index;
  if (wrap) {
    Value negative = t_binary(in, Op::Lt, idx, Value::integer(0), loc);
    idx = t_where(in, negative, t_binary(in, Op::Add, idx, Value::integer(size), loc), idx, loc);
  }
  if (is.empty()) {  // a 0-d index selects one slice and drops the dim
    Shape out = xs;
    out.erase(out.begin() + dim);
    return t_reshape(in, t_take(in, x, dim, t_reshape(in, idx, {1}, loc), false, name, loc), out, loc);
  }
  const int r = static_cast<int>(is.size());
  Shape pre(xs.begin(), xs.begin() + dim), post(xs.begin() + dim + 1, xs.end());
  Shape x_view = pre, x_wide = pre, idx_view(static_cast<size_t>(dim), 1), out = pre;
  for (int k = 0; k < r - 1; ++k) {
    x_view.push_back(1);
    x_wide.push_back(is[static_cast<size_t>(k)]);
  }
  x_view.push_back(size);
  x_wide.push_back(size);
  for (int64_t s : is) {
    idx_view.push_back(s);
    out.push_back(s);
  }
  for (int64_t s : post) {
    x_view.push_back(s);
    x_wide.push_back(s);
    idx_view.push_back(1);
    out.push_back(s);
  }
  Value xv = t_expand(in, t_reshape(in, x, x_view, loc), x_wide, loc);
  Value iv = t_expand(in, t_reshape(in, idx, idx_view, loc), out, loc);
  return t_gather(in, xv, dim + r - 1, iv, name, loc);
}

// ATen's take_along_dim (TensorAdvancedIndexing.cpp): each side broadcast to the other's sizes with its own size
// along dim, then gather; no dim: self.view(-1).gather(0, indices.view(-1)).
Value t_take_along_dim(Interp& in, const Value& x, const Value& indices, std::optional<int64_t> dim, SourceLoc loc) {
  const std::string name = "torch.take_along_dim";
  TensorObj* t = need_tensor(x, name, loc);
  TensorObj* ti = need_tensor(indices, name + " indices", loc);
  if (ti->dtype != DType::Int64) {
    fail(loc, name + "(): dtype of indices should be Long but got " + torch_dtype_name(ti->dtype));
  }
  if (!dim) return t_gather(in, t_reshape(in, x, {-1}, loc), 0, t_reshape(in, indices, {-1}, loc), name, loc);
  if (t->rank() != ti->rank()) {
    fail(loc, name + "(): input and indices should have the same number of dimensions, but got " +
                  std::to_string(t->rank()) + " dimensions for input, and " + std::to_string(ti->rank()) +
                  " dimensions for indices");
  }
  int64_t d = norm_dim(*dim, t->rank(), loc);
  if (t->rank() == 0) return t_gather(in, x, d, indices, name, loc);
  Shape self_sizes = t->shape, index_sizes = ti->shape, index_to, self_to;
  self_sizes[static_cast<size_t>(d)] = ti->shape[static_cast<size_t>(d)];
  index_sizes[static_cast<size_t>(d)] = t->shape[static_cast<size_t>(d)];
  if (!broadcast_shapes(self_sizes, ti->shape, index_to) || !broadcast_shapes(index_sizes, t->shape, self_to)) {
    fail(loc, name + "(): the shapes " + shape_text(t->shape) + " and " + shape_text(ti->shape) +
                  " do not broadcast apart from dimension " + std::to_string(d));
  }
  return t_gather(in, t_expand(in, x, self_to, loc), d, t_expand(in, indices, index_to, loc), name, loc);
}

void check_embedding_options(bool max_norm, bool sparse, const std::string& name, SourceLoc loc) {
  if (max_norm) {
    fail(loc, name + " with max_norm renormalizes the weight rows it reads, in place, during forward: not supported");
  }
  if (sparse) fail(loc, name + "(sparse=True): sparse gradients are not supported");
}

Value t_embedding(Interp& in, const Value& input, const Value& weight, const std::string& name, SourceLoc loc) {
  TensorObj* ti = need_tensor(input, name + " input", loc);
  TensorObj* tw = need_tensor(weight, name + " weight", loc);
  if (tw->rank() != 2) fail(loc, name + ": 'weight' must be 2-D, got " + shape_text(tw->shape));
  if (ti->dtype != DType::Int64 && ti->dtype != DType::Int32) {
    fail(loc, name + ": Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, "
                     "Int; but got " + torch_dtype_name(ti->dtype) + " instead");
  }
  // ATen's embedding: weight.index_select(0, indices.reshape(-1)).view(*indices.shape, -1)
  return t_take(in, weight, 0, input, false, name, loc);
}

Value t_flip(Interp& in, const Value& x, std::vector<int64_t> dims, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "flip", loc);
  for (auto& d : dims) d = norm_dim(d, std::max(t->rank(), 1), loc);
  for (size_t i = 0; i < dims.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (dims[i] == dims[j]) fail(loc, "flip: dim " + std::to_string(dims[i]) + " appears multiple times");
    }
  }
  if (t->rank() == 0 || !traced(in, {t}, loc)) return shape_only(in, t->shape, t->dtype);
  return from_node(in, in.graph->flip(t->node, dims, loc));
}

Value t_slice(Interp& in, const Value& x, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop,
              int64_t step, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "slicing", loc);
  if (t->rank() == 0) fail(loc, "a 0-d tensor cannot be sliced");
  dim = norm_dim(dim, t->rank(), loc);
  if (step <= 0) fail(loc, "slice step must be positive, got " + std::to_string(step));
  int64_t size = t->shape[static_cast<size_t>(dim)];
  auto clamp_end = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t e = *v < 0 ? *v + size : *v;
    return std::clamp<int64_t>(e, 0, size);
  };
  int64_t lo = clamp_end(start, 0), hi = clamp_end(stop, size);
  int64_t length = hi > lo ? (hi - lo + step - 1) / step : 0;
  if (length == 0) fail(loc, "this slice is empty: tensors with no elements are not supported");
  Shape out = t->shape;
  out[static_cast<size_t>(dim)] = length;
  if (!traced(in, {t}, loc)) return shape_only(in, out, t->dtype);
  return from_node(in, in.graph->slice(t->node, dim, lo, length, step, loc));
}

Value t_narrow(Interp& in, const Value& x, int64_t dim, int64_t start, int64_t length, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "narrow", loc);
  if (t->rank() == 0) fail(loc, "narrow: a 0-d tensor cannot be narrowed");
  dim = norm_dim(dim, t->rank(), loc);
  int64_t size = t->shape[static_cast<size_t>(dim)];
  if (start < 0) start += size;
  if (start < 0 || start > size) fail(loc, "narrow: start " + std::to_string(start) + " is out of range");
  if (length < 0 || start + length > size) {
    fail(loc, "narrow: start (" + std::to_string(start) + ") + length (" + std::to_string(length) +
                  ") exceeds the dim's size (" + std::to_string(size) + ")");
  }
  return t_slice(in, x, dim, start, start + length, 1, loc);
}

Value t_select(Interp& in, const Value& x, int64_t dim, int64_t index, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "select", loc);
  if (t->rank() == 0) fail(loc, "select: a 0-d tensor has no dim to select from");
  dim = norm_dim(dim, t->rank(), loc);
  int64_t size = t->shape[static_cast<size_t>(dim)];
  int64_t i = index < 0 ? index + size : index;
  if (i < 0 || i >= size) {
    fail(loc, "select: index " + std::to_string(index) + " is out of range for a dim of size " + std::to_string(size));
  }
  Value one = t_slice(in, x, dim, i, i + 1, 1, loc);
  Shape out = t->shape;
  out.erase(out.begin() + dim);
  return t_reshape(in, one, out, loc);
}

Value t_cat(Interp& in, const std::vector<Value>& parts, int64_t dim, bool stack, const std::string& name,
            SourceLoc loc) {
  if (parts.empty()) fail(loc, name + ": expected a non-empty list of tensors");
  // A cat is a chain of one pad and one add per piece, which the kernel emitter walks recursively: at about 16000
  // pieces that overflowed the stack (random seed 174 of version 3, torch.stack(x.unbind(0)) of 20000 pieces).
  const size_t kMaxPieces = 4096;
  if (parts.size() > kMaxPieces) {
    fail(loc, name + " of " + std::to_string(parts.size()) + " tensors is not supported (at most " +
                  std::to_string(kMaxPieces) + " pieces)");
  }
  std::vector<Value> ts;
  for (const Value& v : parts) {
    TensorObj* t = need_tensor(v, name, loc);
    if (t->rank() == 0 && !stack) fail(loc, name + ": zero-dimensional tensors cannot be concatenated");
    ts.push_back(v);
  }
  const Shape first = tensor_of(ts[0])->shape;
  int rank = static_cast<int>(first.size()) + (stack ? 1 : 0);
  dim = norm_dim(dim, rank, loc);
  if (stack) {
    for (auto& v : ts) {
      if (tensor_of(v)->shape != first) {
        fail(loc, name + ": tensors " + shape_text(first) + " and " + shape_text(tensor_of(v)->shape) +
                      " must have the same shape");
      }
      v = t_unsqueeze(in, v, dim, loc);
    }
  }
  Shape out = tensor_of(ts[0])->shape;
  DType dt = tensor_of(ts[0])->dtype;
  out[static_cast<size_t>(dim)] = 0;
  for (const Value& v : ts) {
    const Shape& s = tensor_of(v)->shape;
    bool ok = s.size() == out.size();
    for (size_t k = 0; ok && k < s.size(); ++k) ok = static_cast<int64_t>(k) == dim || s[k] == out[k];
    if (!ok) {
      fail(loc, name + ": tensors " + shape_text(tensor_of(ts[0])->shape) + " and " + shape_text(s) +
                    " do not fit together along dim " + std::to_string(dim));
    }
    out[static_cast<size_t>(dim)] += s[static_cast<size_t>(dim)];
    dt = promote(dt, tensor_of(v)->dtype);
  }
  check_float64(dt, loc);
  std::vector<const TensorObj*> objs;
  for (const Value& v : ts) objs.push_back(tensor_of(v));
  bool forward = in.phase == Phase::Forward;
  for (const TensorObj* o : objs) {
    if (forward && !o->node) traced(in, {o}, loc);  // the located error for a tensor made outside forward()
  }
  if (!forward) return shape_only(in, out, dt);
  // cat([a, b], d) => pad(a, d, 0, |b|) + pad(b, d, |a|, 0): each element reads one part, the others are zero.
  const Node* sum = nullptr;
  int64_t before = 0, total = out[static_cast<size_t>(dim)];
  for (const TensorObj* o : objs) {
    int64_t len = o->shape[static_cast<size_t>(dim)];
    const Node* part = in.graph->pad(in.graph->cast(o->node, dt, loc), dim, before, total - before - len, loc);
    before += len;
    if (!sum) sum = part;
    else sum = in.graph->binary(dt == DType::Bool ? Op::LogicalOr : Op::Add, sum, part, loc);
  }
  return from_node(in, sum);
}

Value t_matmul(Interp& in, const Value& a, const Value& b, SourceLoc loc, const char* fname) {
  std::string f = fname;
  TensorObj* ta = need_tensor(a, f, loc);
  TensorObj* tb = need_tensor(b, f, loc);
  if (ta->rank() == 0 || tb->rank() == 0) {
    fail(loc, f + ": both operands need at least one dimension, got " + shape_text(ta->shape) + " and " +
                  shape_text(tb->shape));
  }
  if (ta->dtype != tb->dtype) {
    fail(loc, f + ": both operands must have the same dtype, got " + torch_dtype_name(ta->dtype) + " and " +
                  torch_dtype_name(tb->dtype));
  }
  if (!is_floating(ta->dtype)) fail(loc, f + " of integer or bool tensors is not supported");
  // 1-D operands become matrices ([K] -> [1, K] on the left, [K, 1] on the right), and the added dim is
  // removed from the result, as in PyTorch.
  Shape sa = ta->shape, sb = tb->shape;
  if (ta->rank() == 1) sa.insert(sa.begin(), 1);
  if (tb->rank() == 1) sb.push_back(1);
  int64_t ka = sa.back(), kb = sb[sb.size() - 2];
  if (ka != kb) {
    fail(loc, f + ": shapes " + shape_text(ta->shape) + " and " + shape_text(tb->shape) + " cannot be multiplied (" +
                  std::to_string(ka) + " != " + std::to_string(kb) + ")");
  }
  Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2), batch;
  if (!broadcast_shapes(ba, bb, batch)) {
    fail(loc,
         f + ": the batch dims of " + shape_text(ta->shape) + " and " + shape_text(tb->shape) + " do not broadcast");
  }
  Shape out = batch;
  if (ta->rank() > 1) out.push_back(sa[sa.size() - 2]);
  if (tb->rank() > 1) out.push_back(sb.back());
  check_shape(out, loc);
  if (traced(in, {ta, tb}, loc)) {
    // A diagonal matrix is a scale: matmul(diag(d), m) => d[:, None] * m; matmul(m, diag(d)) => m * d[None, :]
    Graph& g = *in.graph;
    if (ta->node->op == Op::Diag && tb->rank() >= 2) {
      const Node* d = ta->node->src[0];
      return from_node(in, g.binary(Op::Mul, g.reshape(d, {d->shape[0], 1}, loc), tb->node, loc));
    }
    if (tb->node->op == Op::Diag && ta->rank() >= 2) {
      const Node* d = tb->node->src[0];
      return from_node(in, g.binary(Op::Mul, ta->node, g.reshape(d, {1, d->shape[0]}, loc), loc));
    }
    const Node* na = in.graph->reshape(ta->node, sa, loc);
    const Node* nb = in.graph->reshape(tb->node, sb, loc);
    const Node* m = in.graph->matmul(na, nb, loc);
    return from_node(in, in.graph->reshape(m, out, loc));
  }
  return shape_only(in, out, ta->dtype);
}

Value t_linear(Interp& in, const Value& x, const Value& w, const Value& b, SourceLoc loc) {
  TensorObj* tx = need_tensor(x, "linear input", loc);
  TensorObj* tw = need_tensor(w, "linear weight", loc);
  if (tw->rank() != 2) fail(loc, "linear: the weight must be 2-D, got " + shape_text(tw->shape));
  if (tx->rank() == 0) fail(loc, "linear: the input must have at least one dimension");
  if (tx->shape.back() != tw->shape[1]) {
    fail(loc, "linear: the input's last dim (" + std::to_string(tx->shape.back()) +
                  ") does not match the weight's "
                  "in_features (" +
                  std::to_string(tw->shape[1]) + ")");
  }
  // linear(x, w, b) => matmul(x, permute(w, {1, 0})) + b
  Value y = t_matmul(in, x, t_permute(in, w, {1, 0}, loc), loc, "linear");
  if (!b.is_none()) {
    TensorObj* tb = need_tensor(b, "linear bias", loc);
    if (tb->rank() > 1 || (tb->rank() == 1 && tb->shape[0] != tw->shape[0] && tb->shape[0] != 1)) {
      fail(loc, "linear: the bias " + shape_text(tb->shape) + " does not match out_features " +
                    std::to_string(tw->shape[0]));
    }
    y = t_binary(in, Op::Add, y, b, loc);
  }
  return y;
}

namespace {

// An int or a tuple of nd ints (PyTorch's _ntuple), each checked against `min`.
std::vector<int64_t> conv_ints(const Value& v, int nd, int64_t dflt, int64_t min, const std::string& what,
                               SourceLoc loc) {
  if (v.is_none()) return std::vector<int64_t>(nd, dflt);
  std::vector<int64_t> out = to_int_list(v, what, loc);
  if (v.is_int_like()) out.assign(nd, out[0]);
  if (static_cast<int>(out.size()) != nd) {
    fail(loc, what + ": expected an int or " + std::to_string(nd) + " ints, got " + std::to_string(out.size()));
  }
  for (int64_t x : out) {
    if (x < min) fail(loc, what + " must be at least " + std::to_string(min) + ", got " + std::to_string(x));
  }
  return out;
}

}  // namespace

Value t_conv(Interp& in, const std::string& fname, const Value& x, const Value& w, const Value& bias,
             const ConvSpec& spec, SourceLoc loc) {
  const int nd = spec.nd;
  TensorObj* tx = need_tensor(x, fname + " input", loc);
  TensorObj* tw = need_tensor(w, fname + " weight", loc);
  if (tw->rank() != nd + 2) {
    fail(loc, fname + ": the weight must be " + std::to_string(nd + 2) + "-D, got " + shape_text(tw->shape));
  }
  bool batched = tx->rank() == nd + 2;
  if (!batched && tx->rank() != nd + 1) {
    fail(loc, fname + ": expected a " + std::to_string(nd + 1) + "-D (unbatched) or " + std::to_string(nd + 2) +
                  "-D (batched) input, got " + shape_text(tx->shape));
  }
  if (!is_floating(tx->dtype)) fail(loc, fname + " of integer or bool tensors is not supported");
  if (tx->dtype != tw->dtype) {
    fail(loc, fname + ": the input (" + torch_dtype_name(tx->dtype) + ") and the weight (" +
                  torch_dtype_name(tw->dtype) + ") must have the same dtype");
  }
  Shape xs = tx->shape;
  if (!batched) xs.insert(xs.begin(), 1);
  int64_t groups = spec.groups;
  if (groups < 1) fail(loc, fname + ": groups must be positive, got " + std::to_string(groups));
  std::vector<int64_t> stride = conv_ints(spec.stride, nd, 1, 1, fname + " stride", loc);
  std::vector<int64_t> dilation = conv_ints(spec.dilation, nd, 1, 1, fname + " dilation", loc);
  std::vector<int64_t> kernel(tw->shape.begin() + 2, tw->shape.end());
  // Padding on the leading and the trailing side of each spatial dim.
  std::vector<int64_t> pad_lo(nd, 0), pad_hi(nd, 0);
  if (spec.padding.is(Kind::Str)) {
    const std::string& mode = str_of(spec.padding);
    if (spec.transposed) fail(loc, fname + ": padding='" + mode + "' is not supported by transposed convolutions");
    if (mode == "same") {
      for (int d = 0; d < nd; ++d) {
        if (stride[d] != 1) fail(loc, fname + ": padding='same' is not supported for strided convolutions");
        int64_t total = dilation[d] * (kernel[d] - 1);
        pad_lo[d] = total / 2;  // PyTorch puts the odd element of the padding at the end
        pad_hi[d] = total - pad_lo[d];
      }
    } else if (mode != "valid") {
      fail(loc, fname + ": padding must be 'same', 'valid', an int or a tuple of ints, got '" + mode + "'");
    }
  } else {
    pad_lo = conv_ints(spec.padding, nd, 0, 0, fname + " padding", loc);
    pad_hi = pad_lo;
  }
  std::vector<int64_t> out_pad = conv_ints(spec.output_padding, nd, 0, 0, fname + " output_padding", loc);
  int64_t c_in = xs[1];
  int64_t c_out = 0;
  if (!spec.transposed) {
    if (tw->shape[0] % groups != 0) {
      fail(loc, fname + ": out_channels (weight dim 0 = " + std::to_string(tw->shape[0]) +
                    ") must be divisible by groups (" + std::to_string(groups) + ")");
    }
    if (c_in != tw->shape[1] * groups) {
      fail(loc, fname + ": the input has " + std::to_string(c_in) + " channels, but the weight " +
                    shape_text(tw->shape) + " with groups=" + std::to_string(groups) + " expects " +
                    std::to_string(tw->shape[1] * groups));
    }
    c_out = tw->shape[0];
  } else {
    if (c_in != tw->shape[0]) {
      fail(loc, fname + ": the input has " + std::to_string(c_in) + " channels, but the weight " +
                    shape_text(tw->shape) + " expects " + std::to_string(tw->shape[0]));
    }
    if (c_in % groups != 0) {
      fail(loc, fname + ": in_channels (" + std::to_string(c_in) + ") must be divisible by groups (" +
                    std::to_string(groups) + ")");
    }
    c_out = tw->shape[1] * groups;
  }
  Shape out = {xs[0], c_out};
  for (int d = 0; d < nd; ++d) {
    int64_t size = 0;
    if (!spec.transposed) {
      size = (xs[d + 2] + pad_lo[d] + pad_hi[d] - dilation[d] * (kernel[d] - 1) - 1) / stride[d] + 1;
      if (xs[d + 2] + pad_lo[d] + pad_hi[d] < dilation[d] * (kernel[d] - 1) + 1) size = 0;
    } else {
      if (out_pad[d] >= std::max(stride[d], dilation[d])) {
        fail(loc, fname + ": output_padding (" + std::to_string(out_pad[d]) +
                      ") must be smaller than either stride or dilation");
      }
      size = (xs[d + 2] - 1) * stride[d] - 2 * pad_lo[d] + dilation[d] * (kernel[d] - 1) + out_pad[d] + 1;
    }
    if (size <= 0) {
      fail(loc, fname + ": the output would be empty (input " + shape_text(tx->shape) + ", kernel " +
                    shape_text(kernel) + ")");
    }
    out.push_back(size);
  }
  if (!bias.is_none()) {
    TensorObj* tb = need_tensor(bias, fname + " bias", loc);
    if (tb->rank() != 1 || tb->shape[0] != c_out) {
      fail(loc, fname + ": the bias " + shape_text(tb->shape) + " does not match the " + std::to_string(c_out) +
                    " output channels");
    }
    if (tb->dtype != tx->dtype) {
      fail(loc, fname + ": the bias (" + torch_dtype_name(tb->dtype) + ") and the input (" +
                    torch_dtype_name(tx->dtype) + ") must have the same dtype");
    }
  }
  check_shape(out, loc);
  Shape result = out;
  if (!batched) result.erase(result.begin());
  if (!traced(in, {tx, tw}, loc)) return shape_only(in, result, tx->dtype);
  Attr attr;
  for (auto* v : {&stride, &pad_lo, &dilation}) attr.ints.insert(attr.ints.end(), v->begin(), v->end());
  attr.ints2 = {groups, spec.transposed ? 1 : 0};
  const Node* nx = batched ? tx->node : in.graph->reshape(tx->node, xs, loc);
  Value y = from_node(in, in.graph->conv(nx, tw->node, out, attr, loc));
  if (!bias.is_none()) {
    // conv(x, w) + bias => conv(x, w) + bias.view(C_out, 1, ...): the add fuses into the conv's epilogue
    Shape bs(nd + 1, 1);
    bs[0] = c_out;
    y = t_binary(in, Op::Add, y, t_reshape(in, bias, bs, loc), loc);
  }
  if (!batched) y = t_reshape(in, y, result, loc);
  return y;
}

// Head dims above 256 do not fit one flash-attention tile: the scores go through memory, in float32.
// attention(q, kt, v) => matmul(cast(softmax(mask(float(matmul(q, kt)) * scale)), q's type), v)
const Node* unfused_attention(Graph& g, const Node* q, const Node* kt, const Node* v, const Node* mask,
                              const Attr& a, SourceLoc loc) {
  const Node* s = g.binary(Op::Mul, g.cast(g.matmul(q, kt, loc), DType::Float32, loc),
                           g.constant(a.floats[0], DType::Float32), loc);
  const Node* neg_inf = g.constant(-INFINITY, DType::Float32);
  if (a.ints[0]) {  // causal: key j <= query i, from tril of a broadcast 1
    Shape ls = {s->shape[s->shape.size() - 2], s->shape.back()};
    const Node* ones = g.expand(g.reshape(g.constant(1.0, DType::Float32), {1, 1}, loc), ls, loc);
    Attr tri;
    tri.ints = {0, 0};
    const Node* keep = g.make(Op::Tri, DType::Float32, ls, {ones}, tri, loc);
    s = g.where(g.binary(Op::Ne, keep, g.constant(0.0, DType::Float32), loc), s, neg_inf, loc);
  }
  if (a.ints[1] == 1) s = g.where(mask, s, neg_inf, loc);
  if (a.ints[1] == 3) s = g.binary(Op::Add, s, g.cast(mask, DType::Float32, loc), loc);
  Attr sm;
  sm.ints = {static_cast<int64_t>(s->shape.size()) - 1};
  const Node* p = g.make(Op::Softmax, DType::Float32, s->shape, {s}, sm, loc);
  return g.matmul(g.cast(p, q->dtype, loc), v, loc);
}

Value t_attention(Interp& in, const Value& q, const Value& k, const Value& v, const Value& mask, bool causal,
                  double scale, SourceLoc loc) {
  const std::string f = "scaled_dot_product_attention";
  TensorObj* tq = need_tensor(q, f + " query", loc);
  TensorObj* tk = need_tensor(k, f + " key", loc);
  TensorObj* tv = need_tensor(v, f + " value", loc);
  if (tq->rank() < 2 || tk->rank() < 2 || tv->rank() < 2) {
    fail(loc, f + ": query, key and value need at least 2 dims, got " + shape_text(tq->shape) + ", " +
                  shape_text(tk->shape) + " and " + shape_text(tv->shape));
  }
  if (tq->dtype != tk->dtype || tq->dtype != tv->dtype) {
    fail(loc, f + ": query, key and value must have the same dtype, got " + torch_dtype_name(tq->dtype) + ", " +
                  torch_dtype_name(tk->dtype) + " and " + torch_dtype_name(tv->dtype));
  }
  if (!is_floating(tq->dtype)) fail(loc, f + " of " + torch_dtype_name(tq->dtype) + " tensors is not supported");
  int64_t e = tq->shape.back(), s = tk->shape[tk->rank() - 2];
  if (tk->shape.back() != e) {
    fail(loc, f + ": the query's head dim " + std::to_string(e) + " differs from the key's " +
                  std::to_string(tk->shape.back()));
  }
  if (tv->shape[tv->rank() - 2] != s) {
    fail(loc, f + ": key and value have different sequence lengths (" + std::to_string(s) + " and " +
                  std::to_string(tv->shape[tv->rank() - 2]) + ")");
  }
  Shape bq(tq->shape.begin(), tq->shape.end() - 2), bk(tk->shape.begin(), tk->shape.end() - 2);
  Shape bv(tv->shape.begin(), tv->shape.end() - 2), bqk, batch;
  if (!broadcast_shapes(bq, bk, bqk) || !broadcast_shapes(bqk, bv, batch)) {
    fail(loc, f + ": the batch dims of " + shape_text(tq->shape) + ", " + shape_text(tk->shape) + " and " +
                  shape_text(tv->shape) + " do not broadcast");
  }
  Shape scores = batch, out = batch;
  scores.push_back(tq->shape[tq->rank() - 2]);
  scores.push_back(s);
  out.push_back(tq->shape[tq->rank() - 2]);
  out.push_back(tv->shape.back());
  TensorObj* tm = nullptr;
  if (!mask.is_none()) {
    tm = need_tensor(mask, f + " attn_mask", loc);
    if (causal) fail(loc, f + ": attn_mask and is_causal=True cannot be given together");
    if (tm->dtype != DType::Bool && tm->dtype != tq->dtype) {
      fail(loc, f + ": attn_mask must be bool or the query's dtype (" + torch_dtype_name(tq->dtype) + "), got " +
                    torch_dtype_name(tm->dtype));
    }
    Shape joined;
    if (!broadcast_shapes(tm->shape, scores, joined) || joined != scores) {
      fail(loc, f + ": attn_mask " + shape_text(tm->shape) + " does not broadcast to the scores " +
                    shape_text(scores));
    }
  }
  if (!traced(in, {tq, tk, tv, tm}, loc)) return shape_only(in, out, tq->dtype);
  Graph& g = *in.graph;
  std::vector<int64_t> perm(static_cast<size_t>(tk->rank()));
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  Attr a;
  int64_t kind = tm ? (tm->dtype == DType::Bool ? 1 : 3) : 0;
  a.ints = {causal ? 1 : 0, kind, 1};
  a.floats = {std::isnan(scale) ? 1.0 / std::sqrt(static_cast<double>(e)) : scale,
              -std::numeric_limits<double>::infinity()};
  const Node* kt = g.permute(tk->node, perm, loc);
  const Node* mk = tm ? tm->node : nullptr;
  if (e > 256 || tv->shape.back() > 256) return from_node(in, unfused_attention(g, tq->node, kt, tv->node, mk, a, loc));
  return from_node(in, g.attention(tq->node, kt, tv->node, mk, a, loc));
}

// einsum of one or two operands, mapped onto sums, views, broadcasting products and one matmul:
//   A[batch, m, k] , B[batch, k, n] -> permute/reshape A to [batch..., M, K] and B to [batch..., K, N], matmul,
//   reshape to [batch..., m..., n...] and permute to the output's order. Indices of one operand only that the
//   output drops are summed first; with no contracted index the product is a broadcasting multiply.
Value t_einsum(Interp& in, const std::string& equation, const std::vector<Value>& ops, SourceLoc loc) {
  const std::string f = "torch.einsum";
  std::string eq;
  for (char c : equation) {
    if (c != ' ') eq += c;
  }
  if (eq.find("...") != std::string::npos) fail(loc, f + " with '...' (ellipsis) is not supported yet");
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ops.size()) {
    fail(loc, f + ": the equation names " + std::to_string(terms.size()) + " operands, " +
                  std::to_string(ops.size()) + " were given");
  }
  if (ops.size() > 2) fail(loc, f + " of more than two operands is not supported yet");
  std::map<char, int64_t> size;
  std::map<char, int> count;
  std::vector<TensorObj*> ts;
  for (size_t i = 0; i < ops.size(); ++i) {
    TensorObj* t = need_tensor(ops[i], f + " operand", loc);
    ts.push_back(t);
    const std::string& term = terms[i];
    if (static_cast<int>(term.size()) != t->rank()) {
      fail(loc, f + ": the subscripts '" + term + "' do not match operand " + std::to_string(i) + " of shape " +
                    shape_text(t->shape));
    }
    for (size_t j = 0; j < term.size(); ++j) {
      char c = term[j];
      if (!std::isalpha(static_cast<unsigned char>(c))) {
        fail(loc, f + ": invalid subscript '" + std::string(1, c) + "'");
      }
      if (term.find(c) != j) {
        fail(loc, f + ": a repeated subscript in one operand ('" + term + "', a diagonal) is not supported yet");
      }
      auto it = size.find(c);
      if (it != size.end() && it->second != t->shape[j]) {
        fail(loc, f + ": subscript '" + std::string(1, c) + "' has sizes " + std::to_string(it->second) + " and " +
                      std::to_string(t->shape[j]));
      }
      size[c] = t->shape[j];
      ++count[c];
    }
  }
  std::string out;
  if (arrow == std::string::npos) {
    for (auto& [c, n] : count) {
      if (n == 1) out += c;  // implicit output: the subscripts seen once, in alphabetical order
    }
  } else {
    out = eq.substr(arrow + 2);
    for (size_t j = 0; j < out.size(); ++j) {
      if (!count.count(out[j])) {
        fail(loc, f + ": output subscript '" + std::string(1, out[j]) + "' does not appear in the inputs");
      }
      if (out.find(out[j]) != j) fail(loc, f + ": output subscript '" + std::string(1, out[j]) + "' appears twice");
    }
  }
  if (ts.size() == 2 && ts[0]->dtype != ts[1]->dtype) {
    fail(loc, f + ": both operands must have the same dtype, got " + torch_dtype_name(ts[0]->dtype) + " and " +
                  torch_dtype_name(ts[1]->dtype));
  }
  if (!is_floating(ts[0]->dtype)) fail(loc, f + " of integer or bool tensors is not supported");
  auto has = [](const std::string& s, char c) { return s.find(c) != std::string::npos; };
  // Sums over the subscripts only this operand has and the output drops.
  std::vector<Value> xs(ops.begin(), ops.end());
  for (size_t i = 0; i < ts.size(); ++i) {
    const std::string* other = ts.size() == 2 ? &terms[1 - i] : nullptr;
    std::vector<int64_t> dims;
    std::string kept;
    for (size_t j = 0; j < terms[i].size(); ++j) {
      char c = terms[i][j];
      if (!has(out, c) && !(other && has(*other, c))) dims.push_back(static_cast<int64_t>(j));
      else kept += c;
    }
    if (!dims.empty()) {
      xs[i] = t_reduce(in, Op::Sum, xs[i], dims, false, loc);
      terms[i] = kept;
    }
  }
  auto permuted = [&](const Value& x, const std::string& from, const std::string& to) {
    std::vector<int64_t> perm;
    bool identity = true;
    for (char c : to) {
      perm.push_back(static_cast<int64_t>(from.find(c)));
      identity = identity && perm.back() == static_cast<int64_t>(perm.size() - 1);
    }
    return identity ? x : t_permute(in, x, perm, loc);
  };
  auto sizes = [&](const std::string& letters) {
    std::vector<int64_t> v;
    for (char c : letters) v.push_back(size[c]);
    return v;
  };
  auto product = [&](const std::string& letters) {
    int64_t p = 1;
    for (char c : letters) p *= size[c];
    return p;
  };
  if (ts.size() == 1) return permuted(xs[0], terms[0], out);
  const std::string &ta = terms[0], &tb = terms[1];
  std::string batch, m, n, k;
  for (char c : ta) {
    if (has(tb, c)) (has(out, c) ? batch : k) += c;
    else m += c;
  }
  for (char c : tb) {
    if (!has(ta, c)) n += c;
  }
  Value result;
  if (k.empty()) {
    // No contraction: a[batch, m, 1...] * b[batch, 1..., n]
    std::vector<int64_t> sa = sizes(batch + m), sb = sizes(batch);
    sa.insert(sa.end(), n.size(), 1);
    sb.insert(sb.end(), m.size(), 1);
    for (int64_t d : sizes(n)) sb.push_back(d);
    Value a = t_reshape(in, permuted(xs[0], ta, batch + m), sa, loc);
    Value b = t_reshape(in, permuted(xs[1], tb, batch + n), sb, loc);
    result = t_binary(in, Op::Mul, a, b, loc);
  } else {
    std::vector<int64_t> sa = sizes(batch), sb = sizes(batch), so = sizes(batch + m + n);
    sa.push_back(product(m));
    sa.push_back(product(k));
    sb.push_back(product(k));
    sb.push_back(product(n));
    Value a = t_reshape(in, permuted(xs[0], ta, batch + m + k), sa, loc);
    Value b = t_reshape(in, permuted(xs[1], tb, batch + k + n), sb, loc);
    result = t_reshape(in, t_matmul(in, a, b, loc, "torch.einsum"), so, loc);
  }
  return permuted(result, batch + m + n, out);
}

Value t_full(Interp& in, Shape shape, double value, DType dtype, SourceLoc loc) {
  check_float64(dtype, loc);
  check_shape(shape, loc);
  if (in.phase != Phase::Forward) return shape_only(in, shape, dtype);
  const Node* c = in.graph->constant(value, dtype);
  if (shape.empty()) return from_node(in, c);
  const Node* r = in.graph->reshape(c, Shape(shape.size(), 1), loc);
  return from_node(in, in.graph->expand(r, shape, loc));
}

}  // namespace tz::tracer
