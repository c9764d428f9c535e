// Loss functions (see losses.h), written with the formulas ATen uses (Loss.cpp, LossNLL.cpp, Distance.cpp in
// PyTorch 2.11), computed in float32 for half inputs and rounded once to the input's type.
#include "trace/losses.h"

#include <cmath>
#include <cstdio>
#include <utility>

#include "trace/tensor_ops.h"

namespace tz::tracer {

namespace {

LossOption opt_none(const char* name, bool in_module = true) { return {name, 'n', 0, nullptr, in_module, name}; }
LossOption opt_reduction() { return {"reduction", 's', 0, "mean", true, "reduction"}; }
LossOption opt_f(const char* name, double v, const char* attr = nullptr) {
  return {name, 'f', v, nullptr, true, attr ? attr : name};
}
LossOption opt_i(const char* name, double v) { return {name, 'i', v, nullptr, true, name}; }
LossOption opt_b(const char* name, bool v) { return {name, 'b', v ? 1.0 : 0.0, nullptr, true, name}; }

Value f32(double v) { return Value::floating(v); }

std::string num_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Floats of half types compute in float32; the result is rounded once at the end.
Value compute_type(Interp& in, const Value& x, SourceLoc loc) {
  DType t = tensor_of(x)->dtype;
  return t == DType::Float16 || t == DType::BFloat16 ? t_cast(in, x, DType::Float32, loc) : x;
}

Value add(Interp& in, const Value& a, const Value& b, SourceLoc loc) { return t_binary(in, Op::Add, a, b, loc); }
Value sub(Interp& in, const Value& a, const Value& b, SourceLoc loc) { return t_binary(in, Op::Sub, a, b, loc); }
Value mul(Interp& in, const Value& a, const Value& b, SourceLoc loc) { return t_binary(in, Op::Mul, a, b, loc); }
Value div(Interp& in, const Value& a, const Value& b, SourceLoc loc) { return t_binary(in, Op::Div, a, b, loc); }
Value sum_all(Interp& in, const Value& x, SourceLoc loc) { return t_reduce(in, Op::Sum, x, std::nullopt, false, loc); }
Value sum_dim(Interp& in, const Value& x, int64_t d, bool keep, SourceLoc loc) {
  return t_reduce(in, Op::Sum, x, std::vector<int64_t>{d}, keep, loc);
}

// The floating tensor argument `name` of `fn`.
TensorObj* need_float(const Value& v, const std::string& fn, const char* name, SourceLoc loc) {
  TensorObj* t = need_tensor(v, fn + " " + name, loc);
  if (!is_floating(t->dtype)) {
    fail(loc, fn + ": " + name + " of type " + torch_dtype_name(t->dtype) + " is not supported (a floating tensor " +
                  "is expected)");
  }
  return t;
}

// apply_loss_reduction: 'none' keeps the elementwise loss, 'sum' and 'mean' reduce over every element.
Value reduce_loss(Interp& in, const Value& loss, const std::string& reduction, SourceLoc loc) {
  if (reduction == "none") return loss;
  if (reduction == "sum") return sum_all(in, loss, loc);
  return t_reduce(in, Op::Mean, loss, std::nullopt, false, loc);
}

struct Options {
  const LossSpec& spec;
  const std::vector<Value>& v;
  std::string fn;
  SourceLoc loc;
  const Value& get(const char* name) const {
    for (size_t i = 0; i < spec.options.size(); ++i) {
      if (std::string(spec.options[i].name) == name) return v[i];
    }
    internal_error(std::string("loss option ") + name + " not in the spec of " + spec.function, __FILE__, __LINE__);
  }
  double num(const char* name) const { return to_float(get(name), fn + " " + name, loc); }
  bool flag(const char* name) const { return to_bool(get(name), fn + " " + name, loc); }
  std::string reduction(std::initializer_list<const char*> extra = {}) const {
    const std::string& r = to_str(get("reduction"), fn + " reduction", loc);
    if (r == "mean" || r == "sum" || r == "none") return r;
    for (const char* e : extra) {
      if (r == e) return r;
    }
    fail(loc, fn + ": reduction='" + r + "' is not a valid value (expected 'mean', 'sum' or 'none'" +
                  (extra.size() ? std::string(" or 'batchmean'") : "") + ")");
  }
};

// A tensor argument that eager PyTorch requires in the input's type (cross_entropy's and nll_loss's weight,
// binary_cross_entropy's target).
void need_same_type(const Options& o, const char* name, const TensorObj* t, const TensorObj* input) {
  if (t->dtype != input->dtype) {
    fail(o.loc, o.fn + ": " + name + " of type " + torch_dtype_name(t->dtype) + " for an input of type " +
                    torch_dtype_name(input->dtype) + " (eager PyTorch requires the input's type)");
  }
}

// (elementwise loss of input and target, both float32 tensors broadcast together; `type` the loss's own: ATen's
// kernels compute in it, so a 16-bit difference is rounded to it before it is squared, as eager's is)
Value pointwise_loss(Interp& in, const Options& o, const Value& x, const Value& y, DType type) {
  SourceLoc loc = o.loc;
  const std::string f = o.spec.function;
  Value d = sub(in, x, y, loc);
  if (type == DType::Float16 || type == DType::BFloat16) d = t_cast(in, t_cast(in, d, type, loc), DType::Float32, loc);
  if (f == "mse_loss") return mul(in, d, d, loc);
  Value z = t_unary(in, Op::Abs, d, loc);
  if (f == "l1_loss") return z;
  if (f == "huber_loss") {
    double delta = o.num("delta");
    if (!(delta > 0)) fail(loc, "F.huber_loss: delta must be positive, got " + num_text(delta));
    // z < delta ? 0.5 z^2 : delta (z - 0.5 delta)
    Value quad = mul(in, mul(in, z, z, loc), f32(0.5), loc);
    Value lin = mul(in, sub(in, z, f32(0.5 * delta), loc), f32(delta), loc);
    return t_where(in, t_binary(in, Op::Lt, z, f32(delta), loc), quad, lin, loc);
  }
  // smooth_l1_loss: z < beta ? 0.5 z^2 / beta : z - 0.5 beta; beta = 0 is l1_loss
  double beta = o.num("beta");
  if (beta < 0) fail(loc, "F.smooth_l1_loss: beta must be non-negative, got " + num_text(beta));
  if (beta == 0) return z;
  Value quad = mul(in, mul(in, z, z, loc), f32(0.5 / beta), loc);
  Value lin = sub(in, z, f32(0.5 * beta), loc);
  return t_where(in, t_binary(in, Op::Lt, z, f32(beta), loc), quad, lin, loc);
}

// mse, l1, huber, smooth_l1, with F's optional elementwise weight.
Value regression_loss(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  TensorObj* ti = need_float(t[0], o.fn, "input", loc);
  need_float(t[1], o.fn, "target", loc);
  std::string reduction = o.reduction();
  DType out = promote(ti->dtype, tensor_of(t[1])->dtype);
  Value loss = pointwise_loss(in, o, compute_type(in, t[0], loc), compute_type(in, t[1], loc), out);
  bool has_weight = false;
  for (const auto& opt : o.spec.options) has_weight = has_weight || std::string(opt.name) == "weight";
  const Value* weight = has_weight && !o.get("weight").is_none() ? &o.get("weight") : nullptr;
  if (weight) {
    TensorObj* w = need_float(*weight, o.fn, "weight", loc);
    if (w->shape != ti->shape) {
      fail(loc, o.fn + ": weight must have the input's shape " + shape_str(ti->shape) + ", got " +
                    shape_str(w->shape));
    }
    Value ws = compute_type(in, *weight, loc);
    loss = mul(in, loss, ws, loc);
    // mse_loss and l1_loss divide a weighted mean by the sum of the weights; huber_loss by the element count.
    std::string f = o.spec.function;
    if (reduction == "mean" && f != "huber_loss") {
      return t_cast(in, div(in, sum_all(in, loss, loc), sum_all(in, ws, loc), loc), out, loc);
    }
  }
  return t_cast(in, reduce_loss(in, loss, reduction, loc), out, loc);
}

// kl_div(input = log q, target = p): p * (log p - log q) with xlogy's 0 at p = 0, or with log_target
// exp(t) * (t - input); 'batchmean' divides the sum by the size of dim 0.
Value kl_div_loss(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  TensorObj* ti = need_float(t[0], o.fn, "input", loc);
  need_float(t[1], o.fn, "target", loc);
  std::string reduction = o.reduction({"batchmean"});
  DType out = promote(ti->dtype, tensor_of(t[1])->dtype);
  Value x = compute_type(in, t[0], loc), y = compute_type(in, t[1], loc);
  Value loss;
  if (o.flag("log_target")) {
    loss = mul(in, t_unary(in, Op::Exp, y, loc), sub(in, y, x, loc), loc);
  } else {
    Value ylogy = t_where(in, t_binary(in, Op::Eq, y, f32(0.0), loc), f32(0.0),
                          mul(in, y, t_unary(in, Op::Log, y, loc), loc), loc);
    loss = sub(in, ylogy, mul(in, y, x, loc), loc);
  }
  if (reduction == "batchmean") {
    Value s = sum_all(in, loss, loc);
    if (ti->rank() > 0) s = div(in, s, f32(static_cast<double>(ti->shape[0])), loc);
    return t_cast(in, s, out, loc);
  }
  return t_cast(in, reduce_loss(in, loss, reduction, loc), out, loc);
}

// The index tensor [n] = 0, 1, ..., n-1 shaped to broadcast along `axis` of a rank-`rank` tensor.
Value class_index(Interp& in, int64_t n, int axis, int rank, SourceLoc loc) {
  Shape shape(static_cast<size_t>(rank - axis), 1);
  shape[0] = n;
  Value iota;
  if (in.phase == Phase::Forward) {
    TensorObj* t = in.new_tensor({n}, DType::Int64, Phase::Forward);
    t->node = in.graph->make(Op::Iota, DType::Int64, {n}, {}, {}, loc);
    iota = in.wrap(t);
  } else {
    iota = in.wrap(in.new_tensor({n}, DType::Int64, Phase::Shape));
  }
  return t_reshape(in, iota, std::vector<int64_t>(shape.begin(), shape.end()), loc);
}

// The optional class weight of cross_entropy and nll_loss: a 1-D tensor of the C classes in the input's type,
// shaped [C, 1, ...] to broadcast along the class axis (float32 for 16-bit inputs); none when not given.
Value class_weight(Interp& in, const Options& o, const TensorObj* input, int64_t C, int axis) {
  const Value& weight = o.get("weight");
  if (weight.is_none()) return Value();
  TensorObj* w = need_float(weight, o.fn, "weight", o.loc);
  if (w->shape != Shape{C}) {
    fail(o.loc, o.fn + ": weight must be a 1-D tensor of the " + std::to_string(C) + " classes, got " +
                    shape_str(w->shape));
  }
  need_same_type(o, "weight", w, input);
  std::vector<int64_t> ws(static_cast<size_t>(input->rank() - axis), 1);
  ws[0] = C;
  return t_reshape(in, compute_type(in, weight, o.loc), ws, o.loc);
}

// Class-index targets of cross_entropy and nll_loss: int64, the input's shape without the class axis.
void need_class_targets(const Options& o, const TensorObj* input, const TensorObj* target, int axis) {
  if (target->dtype != DType::Int64) {
    fail(o.loc, o.fn + ": class-index targets must be torch.int64 (long), got " + torch_dtype_name(target->dtype));
  }
  Shape want = input->shape;
  want.erase(want.begin() + axis);
  if (target->shape != want) {
    fail(o.loc, o.fn + ": class-index targets of shape " + shape_str(want) + " expected for an input of shape " +
                    shape_str(input->shape) + ", got " + shape_str(target->shape));
  }
}

// cross_entropy over the class dim (1, or 0 for an unbatched [C] input). Class indices: the row's
// log-sum-exp minus the target logit, picked by comparing the class index with the target inside the same
// row reduction (the reduction kernel reads such a pick as one load at the target: kernel/values.h); ignored targets count zero and leave the mean's denominator. Label smoothing
// adds eps/C of -sum(log_softmax) per row, as ATen does (2.11 divides both means by the same count).
Value cross_entropy_loss(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  TensorObj* ti = need_float(t[0], o.fn, "input", loc);
  TensorObj* tt = need_tensor(t[1], o.fn + " target", loc);
  std::string reduction = o.reduction();
  double eps = o.num("label_smoothing");
  if (eps < 0 || eps > 1) fail(loc, o.fn + ": label_smoothing must be between 0 and 1, got " + num_text(eps));
  int rank = ti->rank();
  if (rank == 0) fail(loc, o.fn + ": the input must have at least one dim (the classes)");
  int axis = rank == 1 ? 0 : 1;
  int64_t C = ti->shape[static_cast<size_t>(axis)];
  const Value w = class_weight(in, o, ti, C, axis);  // [C, 1, ...]
  const Value& weight = o.get("weight");
  DType out = ti->dtype;
  Value x = compute_type(in, t[0], loc);
  // Everything below reads x - max: the picked logit and the smoothing sum then reduce over the same
  // values as the exponentials, so that one kernel (one pass per loop) computes them all.
  Value m = t_reduce(in, Op::Max, x, std::vector<int64_t>{axis}, true, loc);
  Value xm = sub(in, x, m, loc);
  Value log_sumexp = t_unary(in, Op::Log, sum_dim(in, t_unary(in, Op::Exp, xm, loc), axis, true, loc), loc);

  if (is_floating(tt->dtype)) {
    // Class probabilities: -sum(w * p' * log_softmax(x)) with p' = p (1 - eps) + eps / C; mean over the rows.
    if (tt->shape != ti->shape) {
      fail(loc, o.fn + ": probability targets must have the input's shape " + shape_str(ti->shape) + ", got " +
                    shape_str(tt->shape));
    }
    if (o.get("ignore_index").as_int() != -100) {
      fail(loc, o.fn + ": ignore_index is only supported with class-index targets");
    }
    Value p = compute_type(in, t[1], loc);
    if (eps > 0) p = add(in, mul(in, p, f32(1 - eps), loc), f32(eps / static_cast<double>(C)), loc);
    Value term = mul(in, p, sub(in, xm, log_sumexp, loc), loc);
    if (!weight.is_none()) term = mul(in, term, w, loc);
    Value row = t_unary(in, Op::Neg, sum_dim(in, term, axis, false, loc), loc);
    if (reduction == "none") return t_cast(in, row, out, loc);
    Value s = sum_all(in, row, loc);
    if (reduction == "mean") s = div(in, s, f32(static_cast<double>(numel(ti->shape) / std::max<int64_t>(C, 1))), loc);
    return t_cast(in, s, out, loc);
  }

  need_class_targets(o, ti, tt, axis);
  int64_t ignore = o.get("ignore_index").is_none() ? -100 : to_int(o.get("ignore_index"), o.fn + " ignore_index", loc);
  Value target = t_unsqueeze(in, t[1], axis, loc);                    // [N, 1, ...]
  Value hit = t_binary(in, Op::Eq, class_index(in, C, axis, rank, loc), target, loc);  // [N, C, ...]
  Value picked = sum_dim(in, t_where(in, hit, xm, f32(0.0), loc), axis, true, loc);  // x[target] - max
  Value valid = t_binary(in, Op::Ne, target, Value::integer(ignore), loc);
  Value nll = sub(in, log_sumexp, picked, loc);
  Value wt;  // the target's weight, 0 where ignored
  if (!weight.is_none()) {
    wt = sum_dim(in, t_where(in, hit, w, f32(0.0), loc), axis, true, loc);
    wt = t_where(in, valid, wt, f32(0.0), loc);
    nll = mul(in, nll, wt, loc);
  }
  nll = t_where(in, valid, nll, f32(0.0), loc);
  Value smooth;
  if (eps > 0) {
    // -sum_c w_c (x_c - lse) = log_sumexp * sum(w) - sum(w (x - max)), or C log_sumexp - sum(x - max) unweighted
    Value s = weight.is_none()
                  ? sub(in, mul(in, log_sumexp, f32(static_cast<double>(C)), loc), sum_dim(in, xm, axis, true, loc), loc)
                  : sub(in, mul(in, log_sumexp, sum_all(in, w, loc), loc),
                        sum_dim(in, mul(in, xm, w, loc), axis, true, loc), loc);
    smooth = t_where(in, valid, s, f32(0.0), loc);
  }
  auto squeeze = [&](const Value& v) { return t_squeeze(in, v, std::vector<int64_t>{axis}, loc); };
  auto mix = [&](const Value& a, const Value& b) {
    return eps > 0 ? add(in, mul(in, a, f32(1 - eps), loc), mul(in, b, f32(eps / static_cast<double>(C)), loc), loc)
                   : a;
  };
  if (reduction == "none") return t_cast(in, squeeze(mix(nll, smooth)), out, loc);
  Value nll_sum = sum_all(in, nll, loc);
  Value smooth_sum = eps > 0 ? sum_all(in, smooth, loc) : Value();
  if (reduction == "sum") return t_cast(in, mix(nll_sum, smooth_sum), out, loc);
  if (!weight.is_none()) {
    Value denom = sum_all(in, wt, loc);
    return t_cast(in, div(in, mix(nll_sum, smooth_sum), denom, loc), out, loc);
  }
  Value count = sum_all(in, t_cast(in, valid, DType::Float32, loc), loc);
  Value nll_mean = div(in, nll_sum, count, loc);
  Value smooth_mean = eps > 0 ? div(in, smooth_sum, count, loc) : Value();
  return t_cast(in, mix(nll_mean, smooth_mean), out, loc);
}

// nll_loss(input = log-probabilities [N, C, ...] or [C], class-index target): -w[t] * input[t] per element, 0 where
// the target is ignore_index; 'mean' divides the sum by the sum of the targets' weights (their count unweighted:
// NaN when every target is ignored, as eager's 0 / 0). The target's value is picked by comparing the class index
// with it inside the class reduction, as cross_entropy does.
Value nll_loss(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  TensorObj* ti = need_float(t[0], o.fn, "input", loc);
  TensorObj* tt = need_tensor(t[1], o.fn + " target", loc);
  std::string reduction = o.reduction();
  int rank = ti->rank();
  if (rank == 0) fail(loc, o.fn + ": the input must have at least one dim (the classes)");
  int axis = rank == 1 ? 0 : 1;
  int64_t C = ti->shape[static_cast<size_t>(axis)];
  need_class_targets(o, ti, tt, axis);
  const Value w = class_weight(in, o, ti, C, axis);  // [C, 1, ...]
  const Value& weight = o.get("weight");
  int64_t ignore = to_int(o.get("ignore_index"), o.fn + " ignore_index", loc);
  DType out = ti->dtype;
  Value x = compute_type(in, t[0], loc);
  Value target = t_unsqueeze(in, t[1], axis, loc);                                     // [N, 1, ...]
  Value hit = t_binary(in, Op::Eq, class_index(in, C, axis, rank, loc), target, loc);  // [N, C, ...]
  Value valid = t_binary(in, Op::Ne, target, Value::integer(ignore), loc);
  Value picked = sum_dim(in, t_where(in, hit, x, f32(0.0), loc), axis, true, loc);
  Value wt = t_cast(in, valid, DType::Float32, loc);  // the target's weight, 0 where ignored
  if (!weight.is_none()) wt = t_where(in, valid, sum_dim(in, t_where(in, hit, w, f32(0.0), loc), axis, true, loc), f32(0.0), loc);
  Value loss = t_where(in, valid, t_unary(in, Op::Neg, mul(in, picked, wt, loc), loc), f32(0.0), loc);
  if (reduction == "none") return t_cast(in, t_squeeze(in, loss, std::vector<int64_t>{axis}, loc), out, loc);
  Value total = sum_all(in, loss, loc);
  if (reduction == "mean") total = div(in, total, sum_all(in, wt, loc), loc);
  return t_cast(in, total, out, loc);
}

// The weight of binary_cross_entropy(_with_logits): any shape that broadcasts to the input's.
Value loss_weight(Interp& in, const Options& o, const char* name, const TensorObj* input, SourceLoc loc) {
  const Value& weight = o.get(name);
  if (weight.is_none()) return Value();
  TensorObj* w = need_float(weight, o.fn, name, loc);
  Shape joint;
  if (!broadcast_shapes(w->shape, input->shape, joint) || joint != input->shape) {
    fail(loc, o.fn + ": " + name + " of shape " + shape_str(w->shape) + " does not broadcast to the input's shape " +
                  shape_str(input->shape));
  }
  return weight;
}

// The input and target of binary_cross_entropy(_with_logits): floating tensors of one shape.
std::pair<TensorObj*, TensorObj*> input_and_target(const Options& o, const std::vector<Value>& t) {
  TensorObj* ti = need_float(t[0], o.fn, "input", o.loc);
  TensorObj* tt = need_float(t[1], o.fn, "target", o.loc);
  if (tt->shape != ti->shape) {
    fail(o.loc, o.fn + ": the target's shape " + shape_str(tt->shape) + " must be the input's " +
                    shape_str(ti->shape));
  }
  return {ti, tt};
}

// binary_cross_entropy(input = probabilities, target): (t - 1) * max(log1p(-x), -100) - t * max(log(x), -100),
// ATen's CUDA kernel, which computes in the input's type (a 16-bit input rounds after each step, as here: each
// step below is an op of that type), times the weight; 'mean' over every element.
Value binary_cross_entropy(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  auto [ti, tt] = input_and_target(o, t);
  std::string reduction = o.reduction();
  need_same_type(o, "target", tt, ti);
  Value weight = loss_weight(in, o, "weight", ti, loc);
  DType type = ti->dtype;
  Value x = t[0], y = t[1];
  auto in_type = [&](const Value& v) { return type == DType::Float32 ? v : t_cast(in, v, type, loc); };
  // (log1p in float32, rounded once, as c10's 16-bit log1p does)
  Value neg = t_unary(in, Op::Neg, compute_type(in, x, loc), loc);
  Value log_1mx = t_binary(in, Op::Maximum, in_type(t_unary(in, Op::Log1p, neg, loc)), f32(-100.0), loc);
  Value log_x = t_binary(in, Op::Maximum, t_unary(in, Op::Log, x, loc), f32(-100.0), loc);
  Value loss = sub(in, mul(in, sub(in, y, f32(1.0), loc), log_1mx, loc), mul(in, y, log_x, loc), loc);
  if (!weight.is_none()) loss = mul(in, loss, t_cast(in, weight, type, loc), loc);
  return t_cast(in, reduce_loss(in, loss, reduction, loc), type, loc);
}

// binary_cross_entropy_with_logits as ATen 2.11 writes it (Loss.cpp): log_sigmoid(x) * ((pos_weight - 1) * t + 1)
// with pos_weight, then (1 - t) * x - that, times the weight. log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)) in
// float32, rounded once for 16-bit inputs; the other steps are ops of the input's type.
Value binary_cross_entropy_with_logits(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  auto [ti, tt] = input_and_target(o, t);
  std::string reduction = o.reduction();
  Value weight = loss_weight(in, o, "weight", ti, loc);
  Value pos_weight = loss_weight(in, o, "pos_weight", ti, loc);
  DType type = promote(ti->dtype, tt->dtype);
  Value x = t_cast(in, t[0], type, loc), y = t_cast(in, t[1], type, loc);
  Value xf = compute_type(in, x, loc);
  Value e = t_unary(in, Op::Exp, t_unary(in, Op::Neg, t_unary(in, Op::Abs, xf, loc), loc), loc);
  Value log_sigmoid = sub(in, t_binary(in, Op::Minimum, xf, f32(0.0), loc), t_unary(in, Op::Log1p, e, loc), loc);
  if (type != DType::Float32) log_sigmoid = t_cast(in, log_sigmoid, type, loc);
  if (!pos_weight.is_none()) {
    Value pw = t_cast(in, pos_weight, type, loc);
    log_sigmoid = mul(in, log_sigmoid, add(in, mul(in, sub(in, pw, f32(1.0), loc), y, loc), f32(1.0), loc), loc);
  }
  Value loss = sub(in, mul(in, sub(in, f32(1.0), y, loc), x, loc), log_sigmoid, loc);
  if (!weight.is_none()) loss = mul(in, loss, t_cast(in, weight, type, loc), loc);
  return t_cast(in, reduce_loss(in, loss, reduction, loc), type, loc);
}

// pairwise_distance: the p-norm of (x1 - x2 + eps) over the last dim.
Value p_distance(Interp& in, const Value& a, const Value& b, double p, double eps, bool keepdim, SourceLoc loc) {
  Value d = add(in, sub(in, a, b, loc), f32(eps), loc);
  int last = std::max(tensor_of(d)->rank() - 1, 0);
  if (tensor_of(d)->rank() == 0) fail(loc, "pairwise_distance of 0-d tensors is not supported");
  if (p == 2) return t_unary(in, Op::Sqrt, sum_dim(in, mul(in, d, d, loc), last, keepdim, loc), loc);
  Value z = t_unary(in, Op::Abs, d, loc);
  if (p == 1) return sum_dim(in, z, last, keepdim, loc);
  if (std::isinf(p) && p > 0) return t_reduce(in, Op::Max, z, std::vector<int64_t>{last}, keepdim, loc);
  return t_binary(in, Op::Pow, sum_dim(in, t_binary(in, Op::Pow, z, f32(p), loc), last, keepdim, loc), f32(1.0 / p),
                  loc);
}

double need_norm_order(const Options& o, const char* name) {
  double p = o.num(name);
  if (!(p > 0)) {
    fail(o.loc, o.fn + ": p=" + num_text(p) + " is not supported (p must be positive; p=0 counts " +
                    "non-zero elements, which no loss here needs)");
  }
  return p;
}

Value pairwise_distance(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  TensorObj* a = need_float(t[0], o.fn, "x1", loc);
  need_float(t[1], o.fn, "x2", loc);
  double p = need_norm_order(o, "p");
  DType out = promote(a->dtype, tensor_of(t[1])->dtype);
  Value d = p_distance(in, compute_type(in, t[0], loc), compute_type(in, t[1], loc), p, o.num("eps"),
                       o.flag("keepdim"), loc);
  return t_cast(in, d, out, loc);
}

// triplet_margin_loss: max(margin + d(a, p) - d(a, n), 0), with d(a, n) = min(d(a, n), d(p, n)) under swap.
Value triplet_margin_loss(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  TensorObj* a = need_float(t[0], o.fn, "anchor", loc);
  need_float(t[1], o.fn, "positive", loc);
  need_float(t[2], o.fn, "negative", loc);
  std::string reduction = o.reduction();
  int r = a->rank();
  if (tensor_of(t[1])->rank() != r || tensor_of(t[2])->rank() != r) {
    fail(loc, o.fn + ": anchor, positive and negative must have the same number of dims");
  }
  double p = need_norm_order(o, "p"), eps = o.num("eps"), margin = o.num("margin");
  DType out = promote(promote(a->dtype, tensor_of(t[1])->dtype), tensor_of(t[2])->dtype);
  Value va = compute_type(in, t[0], loc), vp = compute_type(in, t[1], loc), vn = compute_type(in, t[2], loc);
  Value dpos = p_distance(in, va, vp, p, eps, false, loc);
  Value dneg = p_distance(in, va, vn, p, eps, false, loc);
  if (o.flag("swap")) dneg = t_binary(in, Op::Minimum, dneg, p_distance(in, vp, vn, p, eps, false, loc), loc);
  Value loss = t_binary(in, Op::Maximum, sub(in, add(in, dpos, f32(margin), loc), dneg, loc), f32(0.0), loc);
  return t_cast(in, reduce_loss(in, loss, reduction, loc), out, loc);
}

// cosine_similarity as ATen 2.11 computes it: each norm clamped to eps on its own, i.e.
// sum(x1 * x2) / (max(|x1|, eps) * max(|x2|, eps)); one pass of three sums.
Value cosine(Interp& in, const Value& a, const Value& b, int64_t dim, double eps, SourceLoc loc) {
  Value dot = sum_dim(in, mul(in, a, b, loc), dim, false, loc);
  Value n1 = t_unary(in, Op::Sqrt, sum_dim(in, mul(in, a, a, loc), dim, false, loc), loc);
  Value n2 = t_unary(in, Op::Sqrt, sum_dim(in, mul(in, b, b, loc), dim, false, loc), loc);
  Value den = mul(in, t_binary(in, Op::Maximum, n1, f32(eps), loc), t_binary(in, Op::Maximum, n2, f32(eps), loc), loc);
  return div(in, dot, den, loc);
}

Value cosine_similarity(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  TensorObj* a = need_float(t[0], o.fn, "x1", loc);
  TensorObj* b = need_float(t[1], o.fn, "x2", loc);
  DType out = promote(a->dtype, b->dtype);
  Value x1 = compute_type(in, t[0], loc), x2 = compute_type(in, t[1], loc);
  int rank = std::max(a->rank(), b->rank());
  // Both are broadcast to a common shape first, so the dim counts in the broadcast rank.
  int64_t dim = norm_dim(to_int(o.get("dim"), o.fn + " dim", loc), rank, loc);
  return t_cast(in, cosine(in, x1, x2, dim, o.num("eps"), loc), out, loc);
}

// cosine_embedding_loss: 1 - cos where y = 1, max(0, cos - margin) where y = -1, with ATen's own cos:
// sum(x1 x2) / sqrt((sum(x1^2) + 1e-12) (sum(x2^2) + 1e-12)) over dim 1 (dim 0 for 1-D inputs).
Value cosine_embedding_loss(Interp& in, const Options& o, const std::vector<Value>& t) {
  SourceLoc loc = o.loc;
  TensorObj* a = need_float(t[0], o.fn, "input1", loc);
  TensorObj* b = need_float(t[1], o.fn, "input2", loc);
  TensorObj* y = need_tensor(t[2], o.fn + " target", loc);
  std::string reduction = o.reduction();
  if (a->shape != b->shape || (a->rank() != 1 && a->rank() != 2)) {
    fail(loc, o.fn + ": input1 and input2 must be 1-D or 2-D tensors of one shape, got " + shape_str(a->shape) +
                  " and " + shape_str(b->shape));
  }
  Shape ys = a->rank() == 2 ? Shape{a->shape[0]} : Shape{};
  if (y->shape != ys) {
    fail(loc, o.fn + ": target must have the shape " + shape_str(ys) + ", got " + shape_str(y->shape));
  }
  double margin = o.num("margin");
  DType out = promote(a->dtype, b->dtype);
  int64_t dim = a->rank() - 1;
  Value x1 = compute_type(in, t[0], loc), x2 = compute_type(in, t[1], loc);
  Value dot = sum_dim(in, mul(in, x1, x2, loc), dim, false, loc);
  Value m1 = add(in, sum_dim(in, mul(in, x1, x1, loc), dim, false, loc), f32(1e-12), loc);
  Value m2 = add(in, sum_dim(in, mul(in, x2, x2, loc), dim, false, loc), f32(1e-12), loc);
  Value cos = div(in, dot, t_unary(in, Op::Sqrt, mul(in, m1, m2, loc), loc), loc);
  Value yv = is_floating(y->dtype) ? compute_type(in, t[2], loc) : t[2];
  Value pos = t_where(in, t_binary(in, Op::Eq, yv, Value::integer(1), loc), sub(in, f32(1.0), cos, loc), f32(0.0), loc);
  Value neg = t_where(in, t_binary(in, Op::Eq, yv, Value::integer(-1), loc),
                      t_binary(in, Op::Maximum, sub(in, cos, f32(margin), loc), f32(0.0), loc), f32(0.0), loc);
  return t_cast(in, reduce_loss(in, add(in, pos, neg, loc), reduction, loc), out, loc);
}

}  // namespace

const std::vector<LossSpec>& loss_specs() {
  static const std::vector<LossSpec> specs = {
      {"mse_loss", "MSELoss", {"input", "target"},
       {opt_none("size_average"), opt_none("reduce"), opt_reduction(), opt_none("weight", false)}},
      {"l1_loss", "L1Loss", {"input", "target"},
       {opt_none("size_average"), opt_none("reduce"), opt_reduction(), opt_none("weight", false)}},
      {"huber_loss", "HuberLoss", {"input", "target"},
       {opt_reduction(), opt_f("delta", 1.0), opt_none("weight", false)}},
      {"smooth_l1_loss", "SmoothL1Loss", {"input", "target"},
       {opt_none("size_average"), opt_none("reduce"), opt_reduction(), opt_f("beta", 1.0)}},
      {"kl_div", "KLDivLoss", {"input", "target"},
       {opt_none("size_average"), opt_none("reduce"), opt_reduction(), opt_b("log_target", false)}},
      {"cross_entropy", "CrossEntropyLoss", {"input", "target"},
       {opt_none("weight"), opt_none("size_average"), opt_i("ignore_index", -100), opt_none("reduce"),
        opt_reduction(), opt_f("label_smoothing", 0.0)}},
      {"nll_loss", "NLLLoss", {"input", "target"},
       {opt_none("weight"), opt_none("size_average"), opt_i("ignore_index", -100), opt_none("reduce"),
        opt_reduction()}},
      {"binary_cross_entropy", "BCELoss", {"input", "target"},
       {opt_none("weight"), opt_none("size_average"), opt_none("reduce"), opt_reduction()}},
      {"binary_cross_entropy_with_logits", "BCEWithLogitsLoss", {"input", "target"},
       {opt_none("weight"), opt_none("size_average"), opt_none("reduce"), opt_reduction(), opt_none("pos_weight")}},
      {"triplet_margin_loss", "TripletMarginLoss", {"anchor", "positive", "negative"},
       {opt_f("margin", 1.0), opt_f("p", 2.0), opt_f("eps", 1e-6), opt_b("swap", false), opt_none("size_average"),
        opt_none("reduce"), opt_reduction()}},
      {"cosine_embedding_loss", "CosineEmbeddingLoss", {"input1", "input2", "target"},
       {opt_f("margin", 0.0), opt_none("size_average"), opt_none("reduce"), opt_reduction()}},
      {"cosine_similarity", "CosineSimilarity", {"x1", "x2"}, {opt_i("dim", 1), opt_f("eps", 1e-8)}},
      {"pairwise_distance", "PairwiseDistance", {"x1", "x2"},
       {opt_f("p", 2.0, "norm"), opt_f("eps", 1e-6), opt_b("keepdim", false)}},
  };
  return specs;
}

const LossSpec* find_loss_module(const std::string& module) {
  for (const LossSpec& s : loss_specs()) {
    if (module == s.module) return &s;
  }
  return nullptr;
}

Value loss_default(Interp& in, const LossOption& o) {
  switch (o.kind) {
    case 'b': return Value::boolean(o.number != 0);
    case 'i': return Value::integer(static_cast<int64_t>(o.number));
    case 'f': return Value::floating(o.number);
    case 's': return in.str(o.text);
    default: return Value::none();
  }
}

Value t_loss(Interp& in, const LossSpec& spec, const std::vector<Value>& tensors, const std::vector<Value>& opts,
             SourceLoc loc) {
  Options o{spec, opts, std::string("F.") + spec.function, loc};
  for (size_t i = 0; i < spec.options.size(); ++i) {
    std::string name = spec.options[i].name;
    if ((name == "size_average" || name == "reduce") && !opts[i].is_none()) {
      fail(loc, o.fn + ": the deprecated " + name + "= argument is not supported; use reduction=");
    }
  }
  const std::string f = spec.function;
  if (f == "mse_loss" || f == "l1_loss" || f == "huber_loss" || f == "smooth_l1_loss") {
    return regression_loss(in, o, tensors);
  }
  if (f == "kl_div") return kl_div_loss(in, o, tensors);
  if (f == "cross_entropy") return cross_entropy_loss(in, o, tensors);
  if (f == "nll_loss") return nll_loss(in, o, tensors);
  if (f == "binary_cross_entropy") return binary_cross_entropy(in, o, tensors);
  if (f == "binary_cross_entropy_with_logits") return binary_cross_entropy_with_logits(in, o, tensors);
  if (f == "triplet_margin_loss") return triplet_margin_loss(in, o, tensors);
  if (f == "cosine_embedding_loss") return cosine_embedding_loss(in, o, tensors);
  if (f == "cosine_similarity") return cosine_similarity(in, o, tensors);
  if (f == "pairwise_distance") return pairwise_distance(in, o, tensors);
  internal_error("loss " + f + " has no lowering", __FILE__, __LINE__);
}

void register_losses(Interp& in) {
  for (const LossSpec& spec : loss_specs()) {
    std::vector<std::string> params(spec.tensors.begin(), spec.tensors.end());
    for (const LossOption& o : spec.options) params.push_back(std::string(o.name) + "=");
    std::string fn = std::string("F.") + spec.function;
    in.registry[std::string("torch.nn.functional.") + spec.function] =
        in.native(fn, [&spec, params, fn](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
          Bound b = tracer::bind(in, a, fn, params, loc);
          size_t nt = spec.tensors.size();
          std::vector<Value> tensors(b.v.begin(), b.v.begin() + static_cast<std::ptrdiff_t>(nt));
          for (size_t i = 0; i < nt; ++i) {
            if (!b.given[i]) fail(loc, fn + "() missing its argument " + spec.tensors[i]);
          }
          std::vector<Value> opts;
          for (size_t i = 0; i < spec.options.size(); ++i) {
            opts.push_back(b.given[nt + i] ? b[nt + i] : loss_default(in, spec.options[i]));
          }
          return t_loss(in, spec, tensors, opts, loc);
        });
    std::string f = spec.function;
    if (f == "cosine_similarity" || f == "pairwise_distance") {
      in.registry["torch." + f] = in.registry["torch.nn.functional." + f];
    }
  }
}

}  // namespace tz::tracer
