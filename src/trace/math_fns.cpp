// Pointwise math functions (see math_fns.h), each in its torch.<fn> and Tensor.<fn> spellings, traced to graph
// ops with the formula ATen computes. Half-precision inputs compute in float32 and round once, as ATen's
// opmath does, except where ATen itself rounds in between (division with a rounding mode).
#include "trace/math_fns.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "trace/tensor_ops.h"

namespace tz::tracer {

namespace {

Value num(double v) { return Value::floating(v); }
Value un(Interp& in, Op op, const Value& x, SourceLoc loc) { return t_unary(in, op, x, loc); }
Value bin(Interp& in, Op op, const Value& a, const Value& b, SourceLoc loc) { return t_binary(in, op, a, b, loc); }

bool is_half(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

// The value math computes on: half types and integers widen to float32 (ATen's opmath; integer inputs of
// float functions give float32).
Value opmath(Interp& in, const Value& x, SourceLoc loc) {
  DType t = tensor_of(x)->dtype;
  return is_floating(t) && !is_half(t) ? x : t_cast(in, x, DType::Float32, loc);
}

// The result type of a float function of x: x's floating type, float32 for integers.
DType float_result(const TensorObj* t) { return is_floating(t->dtype) ? t->dtype : DType::Float32; }

TensorObj* need_floating(const Value& x, const std::string& fn, SourceLoc loc) {
  TensorObj* t = need_tensor(x, fn, loc);
  if (!is_floating(t->dtype)) {
    fail(loc, fn + " of a " + std::string(torch_dtype_name(t->dtype)) + " tensor is not supported (PyTorch " +
                  "implements it for floating types only)");
  }
  return t;
}

// trunc(x) => where(x < 0, ceil(x), floor(x))  (exact in every floating type; -0.5 gives -0.0 as std::trunc)
Value trunc_of(Interp& in, const Value& x, SourceLoc loc) {
  if (!is_floating(tensor_of(x)->dtype)) return x;  // integers are a copy of themselves (ATen's trunc)
  return t_where(in, bin(in, Op::Lt, x, num(0.0), loc), un(in, Op::Ceil, x, loc), un(in, Op::Floor, x, loc), loc);
}

Value trunc_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "trunc", {"input"}, loc);
  need_tensor(b[0], "trunc", loc);
  return trunc_of(in, b[0], loc);
}

// frac(x) => x - trunc(x)  (ATen's frac; exact, so computed in x's own type; frac(inf) is NaN there too)
Value frac_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "frac", {"input"}, loc);
  need_floating(b[0], "frac", loc);
  return bin(in, Op::Sub, b[0], trunc_of(in, b[0], loc), loc);
}

// round(x) rounds half to even (Op::Round). With decimals, ATen's round_decimals_kernel in opmath, with
// d = float(10^|decimals|) and its divisions correctly rounded (div_rn: an ulp of x / d moves a rounding):
// round(x, decimals > 0) => div_rn(round(x * d), d);  round(x, decimals < 0) => round(div_rn(x, d)) * d
Value round_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "round", {"input", "decimals="}, loc);
  TensorObj* t = need_tensor(b[0], "round", loc);
  int64_t decimals = b.has(1) ? to_int(b[1], "round decimals", loc) : 0;
  if (decimals == 0) return un(in, Op::Round, b[0], loc);
  need_floating(b[0], "round with decimals", loc);
  double d = static_cast<float>(std::pow(10.0, static_cast<double>(std::llabs(decimals))));
  Value xs = opmath(in, b[0], loc);
  Value r = decimals > 0 ? bin(in, Op::DivRn, un(in, Op::Round, bin(in, Op::Mul, xs, num(d), loc), loc), num(d), loc)
                         : bin(in, Op::Mul, un(in, Op::Round, bin(in, Op::DivRn, xs, num(d), loc), loc), num(d), loc);
  return t_cast(in, r, t->dtype, loc);
}

// log10(x) => log2(x) * log10(2)  (two roundings: within 2 ulps of log10f)
Value log10_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "log10", {"input"}, loc);
  TensorObj* t = need_tensor(b[0], "log10", loc);
  Value r = bin(in, Op::Mul, un(in, Op::Log2, opmath(in, b[0], loc), loc), num(M_LN2 / M_LN10), loc);
  return t_cast(in, r, float_result(t), loc);
}

// sinh and cosh as fdlibm's e_sinhf.c / e_coshf.c split them, on a = |x| (so that nothing cancels):
// sinh(x) => sign(x) * where(a < 9, (e + e / (e + 1)) / 2 with e = expm1(a), (h * t) * t)
// cosh(x) => (h * t) * t + (h / t) / t
// with t = exp(a / 2), h = 1/2: exact near 0 through expm1, and no overflow before sinh/cosh themselves
// overflow (exp(a) would at a = 88.7, cosh at 89.4).
Value sinh_cosh(Interp& in, const Value& x, bool cosh, SourceLoc loc) {
  TensorObj* t = need_tensor(x, cosh ? "cosh" : "sinh", loc);
  Value xs = opmath(in, x, loc);
  Value abs = un(in, Op::Abs, xs, loc);
  Value half_exp = un(in, Op::Exp, bin(in, Op::Mul, abs, num(0.5), loc), loc);
  Value big = bin(in, Op::Mul, bin(in, Op::Mul, half_exp, num(0.5), loc), half_exp, loc);
  Value r;
  if (cosh) {
    r = bin(in, Op::Add, big, bin(in, Op::Div, bin(in, Op::Div, num(0.5), half_exp, loc), half_exp, loc), loc);
  } else {
    Value e = un(in, Op::Expm1, abs, loc);
    Value small = bin(in, Op::Add, e, bin(in, Op::Div, e, bin(in, Op::Add, e, num(1.0), loc), loc), loc);
    small = bin(in, Op::Mul, small, num(0.5), loc);
    Value s = t_where(in, bin(in, Op::Lt, abs, num(9.0), loc), small, big, loc);
    r = t_where(in, bin(in, Op::Lt, xs, num(0.0), loc), un(in, Op::Neg, s, loc), s, loc);
  }
  return t_cast(in, r, float_result(t), loc);
}

// tan(x) => sin(x) / cos(x)  (in float32; each within an ulp, so the quotient is within a few, also near the
// poles, where cos(x) is small but exact to its last bits)
Value tan_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "tan", {"input"}, loc);
  TensorObj* t = need_tensor(b[0], "tan", loc);
  Value xs = opmath(in, b[0], loc);
  return t_cast(in, bin(in, Op::Div, un(in, Op::Sin, xs, loc), un(in, Op::Cos, xs, loc), loc), float_result(t), loc);
}

// sign(x) => (x > 0) - (x < 0) in x's type (ATen's sign_kernel): sign(NaN) = 0, sign(-0.0) = +0.0;
// a bool tensor is its own sign.
Value sign_of(Interp& in, const std::string& fn, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, fn, {"input"}, loc);
  TensorObj* t = need_tensor(b[0], fn, loc);
  if (t->dtype == DType::Bool) return b[0];
  Value pos = t_cast(in, bin(in, Op::Gt, b[0], Value::integer(0), loc), t->dtype, loc);
  Value neg = t_cast(in, bin(in, Op::Lt, b[0], Value::integer(0), loc), t->dtype, loc);
  return bin(in, Op::Sub, pos, neg, loc);
}

// The floating-point class tests; integer and bool tensors are never NaN nor infinite:
// isnan(x) => x != x;  isinf(x) => |x| == inf;  isposinf(x) => x == inf;  isneginf(x) => x == -inf;
// isfinite(x) => |x| < inf  (false for NaN)
BuiltinFn class_test(const std::string& fn) {
  return [fn](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, fn, {"input"}, loc);
    const Value& x = b[0];
    TensorObj* t = need_tensor(x, fn, loc);
    const double inf = std::numeric_limits<double>::infinity();
    if (!is_floating(t->dtype)) return bin(in, fn == "isfinite" ? Op::Eq : Op::Ne, x, x, loc);
    if (fn == "isnan") return bin(in, Op::Ne, x, x, loc);
    if (fn == "isinf") return bin(in, Op::Eq, un(in, Op::Abs, x, loc), num(inf), loc);
    if (fn == "isposinf") return bin(in, Op::Eq, x, num(inf), loc);
    if (fn == "isneginf") return bin(in, Op::Eq, x, num(-inf), loc);
    return bin(in, Op::Lt, un(in, Op::Abs, x, loc), num(inf), loc);
  };
}

// The largest finite value of a floating type (torch.finfo(t).max).
double finfo_max(DType t) {
  if (t == DType::Float16) return 65504.0;
  if (t == DType::BFloat16) return 3.3895313892515355e+38;
  return std::numeric_limits<float>::max();
}

// nan_to_num(x, nan, posinf, neginf) => where(x != x, nan, where(x == inf, posinf, where(x == -inf, neginf, x)))
// (ATen's nan_to_num_kernel; posinf/neginf default to the type's largest and lowest finite values, each
// replacement rounded to x's type); integer tensors are returned as they are.
Value nan_to_num_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "nan_to_num", {"input", "nan=", "posinf=", "neginf="}, loc);
  const Value& x = b[0];
  TensorObj* t = need_tensor(x, "nan_to_num", loc);
  auto opt = [&](size_t i, double dflt) { return b.has(i) ? to_float(b[i], "nan_to_num", loc) : dflt; };
  double nan = opt(1, 0.0), posinf = opt(2, finfo_max(t->dtype)), neginf = opt(3, -finfo_max(t->dtype));
  if (!is_floating(t->dtype)) return x;
  const double inf = std::numeric_limits<double>::infinity();
  Value r = t_where(in, bin(in, Op::Eq, x, num(-inf), loc), num(neginf), x, loc);
  r = t_where(in, bin(in, Op::Eq, x, num(inf), loc), num(posinf), r, loc);
  return t_where(in, bin(in, Op::Ne, x, x, loc), num(nan), r, loc);
}

// logical_xor(a, b) => bool(a) != bool(b)  (bool(NaN) is true, as in PyTorch)
Value logical_xor_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "logical_xor", {"input", "other"}, loc);
  need_tensor(b[0], "logical_xor input", loc);
  need_tensor(b[1], "logical_xor other", loc);
  return bin(in, Op::Ne, t_cast(in, b[0], DType::Bool, loc), t_cast(in, b[1], DType::Bool, loc), loc);
}

// ATen's lerp (Lerp.h), in opmath, exact at both ends:
// lerp(s, e, w) => where(|w| < 0.5, s + w * (e - s), e - (e - s) * (1 - w))
// (a Python number weight picks its branch here)
Value lerp_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "lerp", {"input", "end", "weight"}, loc);
  TensorObj* t = need_floating(b[0], "lerp", loc);
  TensorObj* e = need_tensor(b[1], "lerp end", loc);
  if (e->dtype != t->dtype) {
    fail(loc, std::string("lerp: end must have the input's dtype ") + torch_dtype_name(t->dtype) + ", got " +
                  torch_dtype_name(e->dtype));
  }
  Value s = opmath(in, b[0], loc), end = opmath(in, b[1], loc);
  Value diff = bin(in, Op::Sub, end, s, loc);
  auto near_start = [&](const Value& w) { return bin(in, Op::Add, s, bin(in, Op::Mul, w, diff, loc), loc); };
  auto near_end = [&](const Value& one_minus_w) {
    return bin(in, Op::Sub, end, bin(in, Op::Mul, diff, one_minus_w, loc), loc);
  };
  Value r;
  if (b[2].is(Kind::Tensor)) {
    TensorObj* w = need_tensor(b[2], "lerp weight", loc);
    if (w->dtype != t->dtype) {
      fail(loc, std::string("lerp: weight must have the input's dtype ") + torch_dtype_name(t->dtype) + ", got " +
                    torch_dtype_name(w->dtype));
    }
    Value ws = opmath(in, b[2], loc);
    Value small = bin(in, Op::Lt, un(in, Op::Abs, ws, loc), num(0.5), loc);
    r = t_where(in, small, near_start(ws), near_end(bin(in, Op::Sub, num(1.0), ws, loc)), loc);
  } else {
    double w = to_float(b[2], "lerp weight", loc);
    // (1 - w in opmath: float32's rounding of the double difference, as ATen's opmath_t(1) - weight)
    r = std::fabs(w) < 0.5 ? near_start(num(w)) : near_end(num(static_cast<float>(1.0f - static_cast<float>(w))));
  }
  return t_cast(in, r, t->dtype, loc);
}

// addcmul(x, t1, t2, value) => x + value * t1 * t2;  addcdiv(x, t1, t2, value) => x + value * (t1 / t2)
// (ATen's CUDA kernels' grouping, in opmath; its CPU addcdiv computes (value * t1) / t2, an ulp away at most
// when value != 1). Integer addcmul computes in its type with an integer value; integer addcdiv is an error in
// PyTorch too.
BuiltinFn addc(bool div) {
  std::string fn = div ? "addcdiv" : "addcmul";
  return [fn, div](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, fn, {"input", "tensor1", "tensor2", "value="}, loc);
    DType rt = need_tensor(b[0], fn + " input", loc)->dtype;
    rt = promote(rt, need_tensor(b[1], fn + " tensor1", loc)->dtype);
    rt = promote(rt, need_tensor(b[2], fn + " tensor2", loc)->dtype);
    bool fp = is_floating(rt);
    if (div && !fp) {
      fail(loc, "addcdiv of integer tensors is not supported (PyTorch no longer divides integers in addcdiv)");
    }
    Value value = b.has(3) ? b[3] : Value::integer(1);
    if (!fp && !value.is(Kind::Int) && !value.is(Kind::Bool)) {
      fail(loc, fn + ": value must be an integer for integer tensors, got " + type_name(value));
    }
    if (fp) value = num(to_float(value, fn + " value", loc));
    auto widen = [&](const Value& v) { return fp ? opmath(in, v, loc) : v; };
    Value x = widen(b[0]), t1 = widen(b[1]), t2 = widen(b[2]);
    bool unit = value.as_double() == 1.0;
    Value term = div ? bin(in, Op::Div, t1, t2, loc) : t1;
    if (!unit) term = bin(in, Op::Mul, value, term, loc);
    if (!div) term = bin(in, Op::Mul, term, t2, loc);
    return t_cast(in, bin(in, Op::Add, x, term, loc), rt, loc);
  };
}

}  // namespace

namespace {

// A Python number as ATen converts it for a 16-bit tensor's remainder: to the tensor's type. Only numbers that
// type holds exactly are taken (this tracer has no host-side half rounding): others get a located error.
bool exact_in(double v, DType t) {
  if (!is_half(t) || v == 0.0 || !std::isfinite(v)) return true;
  int e = 0;
  double m = std::frexp(std::fabs(v), &e);  // |v| = m * 2^e, m in [0.5, 1)
  int bits = t == DType::Float16 ? 11 : 8;
  int least = t == DType::Float16 ? -13 : -125;  // below: subnormal, fewer significant bits
  if (t == DType::Float16 && std::fabs(v) > 65504.0) return false;
  if (e < least) bits -= least - e;
  if (bits <= 0) return false;
  double scaled = std::ldexp(m, bits);
  return scaled == std::floor(scaled);
}

// fn(input, other) for a traced binary function f (torch.<fn> and Tensor.<fn>).
BuiltinFn binary_fn(const std::string& fn, Value (*f)(Interp&, const Value&, const Value&, SourceLoc)) {
  return [fn, f](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, fn, {"input", "other"}, loc);
    return f(in, b[0], b[1], loc);
  };
}

// The operands of fmod, remainder and floor division: floating tensors (and Python numbers) only.
DType fmod_operands(const Value& a, const Value& b, const std::string& fn, SourceLoc loc) {
  for (const Value* v : {&a, &b}) {
    if (!v->is(Kind::Tensor) && !v->is_number()) fail(loc, fn + " expects tensors or numbers, got a " + type_name(*v));
  }
  need_tensor(a.is(Kind::Tensor) ? a : b, fn, loc);
  DType c = common_dtype(a, b);
  if (c == DType::Bool) fail(loc, fn + " of bool tensors is not supported (PyTorch implements it for numbers only)");
  if (!is_floating(c)) {
    if (!b.is(Kind::Tensor) && to_float(b, fn, loc) == 0.0) fail(loc, fn + ": integer division by zero");
    return c;
  }
  for (const Value* v : {&a, &b}) {
    if (!v->is(Kind::Tensor) && !exact_in(to_float(*v, fn, loc), c)) {
      char shown[32];
      std::snprintf(shown, sizeof shown, "%g", to_float(*v, fn, loc));
      fail(loc, fn + " of a " + std::string(torch_dtype_name(c)) + " tensor and the number " + shown + ", which " + torch_dtype_name(c) +
                    " cannot hold exactly, is not supported (ATen rounds the number to the tensor's type first); " +
                    "use a number the type holds, or a tensor");
    }
  }
  return c;
}

// Where ATen's remainder and floor division move a C remainder m to the divisor's side:
// m != 0 and (b < 0) != (m < 0). A number b decides the side on the host. (For integers this is also ATen's
// div_floor_integer test, "the signs of a and b differ and a remainder is left": a nonzero m has a's sign.)
Value other_side(Interp& in, const Value& m, const Value& b, SourceLoc loc) {
  Value zero = Value::integer(0);
  if (!b.is(Kind::Tensor)) return bin(in, to_float(b, "remainder", loc) < 0 ? Op::Gt : Op::Lt, m, zero, loc);
  Value differ = bin(in, Op::Ne, bin(in, Op::Lt, b, zero, loc), bin(in, Op::Lt, m, zero, loc), loc);
  return bin(in, Op::LogicalAnd, bin(in, Op::Ne, m, zero, loc), differ, loc);
}

}  // namespace

// fmod(a, b) => Op::Fmod: C's fmod, exact (ATen's fmod kernels call it; 16-bit operands give an exact result
// that their type holds, so computing in float32 and rounding once is the same).
Value t_fmod(Interp& in, const Value& a, const Value& b, SourceLoc loc) {
  fmod_operands(a, b, "fmod", loc);
  return bin(in, Op::Fmod, a, b, loc);
}

// remainder(a, b) (Python's %) => m = fmod(a, b); where(m != 0 and (b < 0) != (m < 0), m + b, m)
// (ATen's remainder_kernel; the sum rounds once to the result's type, as there).
Value t_remainder(Interp& in, const Value& a, const Value& b, SourceLoc loc) {
  fmod_operands(a, b, "remainder", loc);
  Value m = bin(in, Op::Fmod, a, b, loc);
  return t_where(in, other_side(in, m, b, loc), bin(in, Op::Add, m, b, loc), m, loc);
}

// floor_divide(a, b) (Python's //, div with rounding_mode='floor') as ATen's div_floor_floating computes it:
//   b == 0: a / b.  Else m = fmod(a, b); q = (a - m) / b; q -= 1 where m is on the other side (as in remainder);
//   q != 0: floor(q), plus 1 where q - floor(q) > 0.5 (q is an integer up to rounding); q == 0: a zero with the
//   sign of a / b.
// A tensor b: each step in the operands' type (on CUDA ATen runs this in scalar_t, so a 16-bit type rounds every
// step) with the division correctly rounded (div_rn). A Python number b: the CUDA kernel's CPU-scalar path, in
// float32 with (a - m) * (1 / b) (Op::DivByNumber: per device, as ATen), rounded to a's type at the end.
Value t_floor_divide(Interp& in, const Value& a, const Value& b, SourceLoc loc) {
  DType c = fmod_operands(a, b, "floor_divide", loc);
  if (!is_floating(c)) {
    // Integers (ATen's div_floor_integer): the truncated quotient, minus 1 where the signs differ and the division
    // leaves a remainder.
    Value q = bin(in, Op::TruncDiv, a, b, loc);
    Value m = bin(in, Op::Fmod, a, b, loc);
    return t_where(in, other_side(in, m, b, loc), bin(in, Op::Sub, q, Value::integer(1), loc), q, loc);
  }
  bool number = !b.is(Kind::Tensor);
  if (number && to_float(b, "floor_divide", loc) == 0.0) return bin(in, Op::DivRn, a, b, loc);
  Value x = a;
  if (number && a.is(Kind::Tensor)) x = opmath(in, a, loc);
  auto divide = [&](const Value& v) {
    if (!number) return bin(in, Op::DivRn, v, b, loc);
    Attr attr;
    attr.floats = {static_cast<float>(to_float(b, "floor_divide", loc))};
    return t_activation(in, Op::DivByNumber, v, attr, loc);
  };
  Value m = bin(in, Op::Fmod, x, b, loc);
  Value q = divide(bin(in, Op::Sub, x, m, loc));
  q = t_where(in, other_side(in, m, b, loc), bin(in, Op::Sub, q, num(1.0), loc), q, loc);
  Value fl = un(in, Op::Floor, q, loc);
  fl = t_where(in, bin(in, Op::Gt, bin(in, Op::Sub, q, fl, loc), num(0.5), loc), bin(in, Op::Add, fl, num(1.0), loc),
               fl, loc);
  Value signed_zero = bin(in, Op::Mul, divide(x), num(0.0), loc);
  Value r = t_where(in, bin(in, Op::Ne, q, num(0.0), loc), fl, signed_zero, loc);
  if (!number) r = t_where(in, bin(in, Op::Eq, b, num(0.0), loc), bin(in, Op::DivRn, a, b, loc), r, loc);
  return tensor_of(r)->dtype == c ? r : t_cast(in, r, c, loc);
}

Value t_div_rounded(Interp& in, const Value& a, const Value& b, const std::string& mode, SourceLoc loc) {
  if (mode != "trunc" && mode != "floor") {
    fail(loc, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + mode + "'");
  }
  if (mode == "floor") return t_floor_divide(in, a, b, loc);
  TensorObj* t = need_tensor(a, "div", loc);
  bool integers = !is_floating(t->dtype) && (b.is(Kind::Tensor) ? !is_floating(tensor_of(b)->dtype) : !b.is(Kind::Float));
  if (integers) fail(loc, "division of integers with rounding_mode='trunc' is not supported yet");
  if (!b.is(Kind::Tensor)) {
    // A Python number: ATen's CUDA kernel computes trunc(a * float32(1 / b)) in float32 (div_trunc_kernel_cuda's
    // CPU-scalar path), its CPU kernel trunc(a / b) with b and the quotient in a's type:
    // div(a, c, 'trunc') => trunc(div_by_number(a, c))   (div_by_number: per device, as ATen)
    // For 16-bit a the two devices round differently (the CPU rounds b and the quotient to a's type).
    if (t->dtype == DType::Float16 || t->dtype == DType::BFloat16) {
      fail(loc, std::string("division of a ") + torch_dtype_name(t->dtype) + " tensor by a Python number with " +
                    "rounding_mode='trunc' is not supported (ATen's CUDA and CPU kernels round it differently); " +
                    "divide by a tensor");
    }
    Attr attr;
    attr.floats = {static_cast<float>(to_float(b, "div", loc))};
    Value x = is_floating(t->dtype) ? a : t_cast(in, a, DType::Float32, loc);
    return trunc_of(in, t_activation(in, Op::DivByNumber, x, attr, loc), loc);
  }
  // div(a, b, 'trunc') => trunc(div_rn(a, b)): the IEEE quotient, rounded to the operands' type first, as ATen's
  // div_trunc_kernel computes it (for half types c10::Half's division rounds before std::trunc). Triton's own
  // fp32 `/` is approximate on the GPU, and an ulp moves an exact integer quotient.
  return trunc_of(in, bin(in, Op::DivRn, a, b, loc), loc);
}

void register_math(Interp& in) {
  def_both(in, "trunc", trunc_fn);
  def_both(in, "fix", trunc_fn);
  def_both(in, "frac", frac_fn);
  def_both(in, "round", round_fn);
  def_both(in, "log10", log10_fn);
  def_both(in, "sinh", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    return sinh_cosh(in, bind(in, a, "sinh", {"input"}, loc)[0], false, loc);
  });
  def_both(in, "cosh", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    return sinh_cosh(in, bind(in, a, "cosh", {"input"}, loc)[0], true, loc);
  });
  def_both(in, "tan", tan_fn);
  def_both(in, "sign", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) { return sign_of(in, "sign", a, loc); });
  def_both(in, "sgn", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) { return sign_of(in, "sgn", a, loc); });
  for (const char* fn : {"isnan", "isinf", "isposinf", "isneginf", "isfinite"}) def_both(in, fn, class_test(fn));
  def_both(in, "nan_to_num", nan_to_num_fn);
  def_both(in, "logical_xor", logical_xor_fn);
  def_both(in, "lerp", lerp_fn);
  def_both(in, "addcmul", addc(false));
  def_both(in, "addcdiv", addc(true));
  def_both(in, "fmod", binary_fn("fmod", t_fmod));
  def_both(in, "remainder", binary_fn("remainder", t_remainder));
  def_both(in, "floor_divide", binary_fn("floor_divide", t_floor_divide));
}

}  // namespace tz::tracer
