// The torch surface: torch.* functions, torch.nn.functional, Tensor methods and attributes, dtypes.
// Each handler binds its arguments like PyTorch does and defers to tensor_ops.cpp; creation functions
// follow the phase (shape-only in get_inputs, replayed in __init__, graph constants in forward), and random
// ones are replayed as their own line at the moment they run, so that the draws keep their order.
#include <cmath>

#include "trace/interp.h"
#include "trace/math_fns.h"
#include "trace/pooling.h"
#include "trace/shape_functions.h"
#include "trace/tensor_ops.h"

namespace tz::tracer {

namespace {

using Fn = BuiltinFn;

// Ops whose result shares its input's storage (or may: reshape, flatten and contiguous return views when
// they can, and a replay made of the same ops aliases in the same cases).
bool is_view_op(const std::string& name) {
  static const char* const kViews[] = {"view",      "reshape", "permute",    "transpose", "swapaxes",   "swapdims",
                                       "t",         "expand",  "expand_as",  "view_as",   "reshape_as", "squeeze",
                                       "unsqueeze", "flatten", "contiguous", "detach",    "narrow",     "select",
                                       "unflatten"};
  for (const char* v : kViews) {
    if (name == v) return true;
  }
  return false;
}

}  // namespace

void def_fn(Interp& in, const std::string& qualname, Fn fn) {
  Value v = in.native(display_name(qualname), std::move(fn));
  v.as<BuiltinObj>()->replay = qualname;
  v.as<BuiltinObj>()->is_view = qualname.rfind("torch.", 0) == 0 && is_view_op(qualname.substr(6));
  in.registry[qualname] = v;
}

// A handler written for fn(input, ...) also serves as the method input.fn(...).
void def_method(Interp& in, const std::string& name, const Fn& fn) {
  in.tensor_methods[name] = [fn](Interp& in, const Value& self, CallArgs& args, SourceLoc loc) {
    args.pos.insert(args.pos.begin(), self);
    return fn(in, Value(), args, loc);
  };
}

void def_both(Interp& in, const std::string& name, const Fn& fn) {
  def_fn(in, "torch." + name, fn);
  def_method(in, name, fn);
}

namespace {

std::optional<std::vector<int64_t>> dims_arg(const Value& v, const std::string& what, SourceLoc loc) {
  if (v.is_none()) return std::nullopt;
  std::vector<int64_t> d = to_int_list(v, what, loc);
  if (d.empty()) return std::nullopt;  // dim=() reduces over everything, as in PyTorch
  return d;
}

bool opt_bool(const Bound& b, size_t i, bool dflt, const std::string& what, SourceLoc loc) {
  return b.given[i] ? to_bool(b[i], what, loc) : dflt;
}

DType opt_dtype(const Bound& b, size_t i, DType dflt, const std::string& what, SourceLoc loc) {
  return b.has(i) ? to_dtype(b[i], what, loc) : dflt;
}

// --- elementwise ---

Fn unary(Op op, const std::string& name) {
  return [op, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input"}, loc);
    return t_unary(in, op, b[0], loc);
  };
}

// F.relu & co.: inplace= (a flag, as Python's truth test reads it) changes no value.
void check_inplace(const Bound& b, size_t i, const std::string& name, SourceLoc loc) {
  if (b.given[i]) to_bool(b[i], name + " inplace", loc);
}

Fn binary(Op op, const std::string& name, bool alpha = false) {
  return [op, name, alpha](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "other", "alpha=", "rounding_mode="}, loc);
    Value other = b[1];
    if (b.has(3)) {
      if (op != Op::Div) fail(loc, name + "() got an unexpected keyword argument 'rounding_mode'");
      return t_div_rounded(in, b[0], other, to_str(b[3], name + " rounding_mode", loc), loc);
    }
    if (b.has(2)) {
      if (!alpha) fail(loc, name + "() got an unexpected keyword argument 'alpha'");
      other = in.binary(ast::Op::Mul, other, b[2], loc);
    }
    if (!b[0].is(Kind::Tensor) && !other.is(Kind::Tensor)) fail(loc, name + ": expected a tensor operand");
    return t_binary(in, op, b[0], other, loc);
  };
}

Value where_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.where", {"condition", "input=", "other="}, loc);
  if (!b.given[1] || !b.given[2]) fail(loc, "torch.where(condition) (the indices form) is not supported");
  return t_where(in, b[0], b[1], b[2], loc);
}

Value clamp_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "clamp", {"input", "min=", "max="}, loc);
  return t_clamp(in, b[0], b[1], b[2], loc);
}

// --- reductions ---

Fn reduce(Op op, const std::string& name) {
  return [op, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "dim=", "keepdim=", "dtype="}, loc);
    Value x = b[0];
    if (b.has(3)) x = t_cast(in, x, to_dtype(b[3], name, loc), loc);
    return t_reduce(in, op, x, dims_arg(b[1], name + " dim", loc), opt_bool(b, 2, false, name, loc), loc);
  };
}

Fn amax(Op op, const std::string& name) {
  return [op, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "dim=", "keepdim="}, loc);
    return t_reduce(in, op, b[0], dims_arg(b[1], name + " dim", loc), opt_bool(b, 2, false, name, loc), loc);
  };
}

// torch.max(x), torch.max(x, dim, keepdim) -> (values, indices), torch.max(x, other) = maximum.
Fn max_min(Op reduce_op, Op pair_op, Op arg_op, const std::string& name) {
  return [=](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "dim=", "keepdim=", "other="}, loc);
    if (b.has(1) && b[1].is(Kind::Tensor)) return t_binary(in, pair_op, b[0], b[1], loc);
    if (b.has(3)) return t_binary(in, pair_op, b[0], b[3], loc);
    if (!b.has(1)) {
      if (b.given[2]) fail(loc, name + ": keepdim needs a dim");
      return t_reduce(in, reduce_op, b[0], std::nullopt, false, loc);
    }
    int64_t dim = to_int(b[1], name + " dim", loc);
    bool keepdim = opt_bool(b, 2, false, name, loc);
    Value values = t_reduce(in, reduce_op, b[0], std::vector<int64_t>{dim}, keepdim, loc);
    Value indices = t_arg_reduce(in, arg_op, b[0], dim, keepdim, loc);
    return in.tuple({values, indices}, {"values", "indices"});
  };
}

// torch.var / torch.std: (input, dim=None, *, correction=1, keepdim=False), the older (input, dim, unbiased,
// keepdim=False) and (input, unbiased): a bool second argument is `unbiased`. torch.var_mean / torch.std_mean take
// the same arguments and return the tuple (var or std, mean).
Fn variance(bool std_dev, bool with_mean = false) {
  const std::string name = std::string(std_dev ? "std" : "var") + (with_mean ? "_mean" : "");
  return [=](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "dim=", "unbiased=", "keepdim=", "correction="}, loc);
    Value dim = b[1];
    std::optional<bool> unbiased;
    if (b.has(1) && dim.is(Kind::Bool)) {
      if (b.given[2]) fail(loc, name + "(): unbiased given twice");
      unbiased = to_bool(dim, name + " unbiased", loc);
      dim = Value::none();
    }
    if (b.has(2)) unbiased = to_bool(b[2], name + " unbiased", loc);
    if (unbiased && b.has(4)) fail(loc, name + "(): unbiased and correction cannot both be given");
    double correction = b.has(4) ? to_float(b[4], name + " correction", loc) : (unbiased.value_or(true) ? 1.0 : 0.0);
    auto [v, mean] = t_var_mean(in, b[0], dims_arg(dim, name + " dim", loc), correction,
                                opt_bool(b, 3, false, name, loc), std_dev, loc);
    return with_mean ? in.tuple({v, mean}) : v;
  };
}

// torch.logsumexp / Tensor.logsumexp(input, dim, keepdim=False)
Value logsumexp_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "logsumexp", {"input", "dim", "keepdim="}, loc);
  return t_logsumexp(in, b[0], dims_arg(b[1], "logsumexp dim", loc), opt_bool(b, 2, false, "logsumexp", loc), loc);
}

// F.softmin(input, dim, _stacklevel, dtype): softmax(-input) (torch/nn/functional.py negates before the cast).
Value softmin_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.softmin", {"input", "dim=", "_stacklevel=", "dtype="}, loc);
  if (!b.has(1)) fail(loc, "F.softmin: dim is required (the implicit choice of dim is deprecated)");
  Value x = t_unary(in, Op::Neg, b[0], loc);
  if (b.has(3)) x = t_cast(in, x, to_dtype(b[3], "F.softmin", loc), loc);
  return t_softmax(in, Op::Softmax, x, to_int(b[1], "F.softmin dim", loc), loc);
}

// F.glu(input, dim=-1)
Value glu_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.glu", {"input", "dim="}, loc);
  return t_glu(in, b[0], b.has(1) ? to_int(b[1], "F.glu dim", loc) : -1, loc);
}

Fn arg_reduce(Op op, const std::string& name) {
  return [op, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "dim=", "keepdim="}, loc);
    std::optional<int64_t> dim;
    if (b.has(1)) dim = to_int(b[1], name + " dim", loc);
    return t_arg_reduce(in, op, b[0], dim, opt_bool(b, 2, false, name, loc), loc);
  };
}

Fn scan(Op op, const std::string& name) {
  return [op, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "dim", "dtype=", "out="}, loc);
    if (b.has(3)) fail(loc, name + " with out= is not supported");
    Value x = b[0];
    if (b.has(2)) x = t_cast(in, x, to_dtype(b[2], name, loc), loc);
    return t_scan(in, op, x, to_int(b[1], name + " dim", loc), loc);
  };
}

Fn softmax(Op op, const std::string& name) {
  return [op, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "dim=", "_stacklevel=", "dtype="}, loc);
    if (!b.has(1)) fail(loc, name + ": dim is required (the implicit choice of dim is deprecated)");
    Value x = b[0];
    if (b.has(3)) x = t_cast(in, x, to_dtype(b[3], name, loc), loc);
    return t_softmax(in, op, x, to_int(b[1], name + " dim", loc), loc);
  };
}

// --- casts and views (methods) ---

Value cast_to(DType t, Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
  if (!a.pos.empty()) fail(loc, std::string("a cast to ") + torch_dtype_name(t) + " takes no positional arguments");
  bind(in, a, "cast", {"memory_format="}, loc);
  return t_cast(in, self, t, loc);
}

Value to_fn(Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
  // x.to(dtype), x.to(device), x.to(device, dtype), x.to(other), with keywords: only the dtype matters.
  DType target = tensor_of(self)->dtype;
  for (const Value& v : a.pos) {
    if (v.is(Kind::DType))
      target = to_dtype(v, "Tensor.to", loc);
    else if (v.is(Kind::Tensor))
      target = tensor_of(v)->dtype;
    else if (!(v.is(Kind::Str) || v.is(Kind::Device) || v.is_int_like() || v.is_none())) {
      fail(loc, "Tensor.to: unexpected argument of type " + type_name(v));
    }
  }
  for (const auto& [k, v] : a.kw) {
    if (k == "dtype")
      target = to_dtype(v, "Tensor.to", loc);
    else if (k != "device" && k != "non_blocking" && k != "copy" && k != "memory_format") {
      fail(loc, "Tensor.to() got an unexpected keyword argument '" + k + "'");
    }
  }
  return t_cast(in, self, target, loc);
}

// An identity in forward; in __init__ a new tensor, so that an in-place change of the copy is replayed on
// the copy only.
Value identity(Interp& in, const Value& self, CallArgs&, SourceLoc) {
  TensorObj* t = tensor_of(self);
  if (t->node || in.phase != Phase::Init) return self;
  return in.wrap(in.new_tensor(t->shape, t->dtype, Phase::Shape));
}

// Tensor.contiguous(): in get_inputs, a fresh contiguous tensor when the tensor is laid out otherwise.
Value contiguous_fn(Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
  TensorObj* t = tensor_of(self);
  if (in.phase == Phase::Shape && !t->node && (t->strided || !t->perm.empty())) {
    return in.wrap(in.new_tensor(t->shape, t->dtype, Phase::Shape));
  }
  return identity(in, self, a, loc);
}

Value size_fn(Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "Tensor.size", {"dim="}, loc);
  TensorObj* t = tensor_of(self);
  if (b.has(0)) {
    int64_t d = norm_dim(to_int(b[0], "Tensor.size", loc), t->rank(), loc);
    if (t->rank() == 0) fail(loc, "Tensor.size(dim) of a 0-d tensor");
    return Value::integer(t->shape[static_cast<size_t>(d)]);
  }
  std::vector<Value> dims;
  for (int64_t d : t->shape) dims.push_back(Value::integer(d));
  return in.tuple(std::move(dims));
}

std::vector<int64_t> varargs_ints(const CallArgs& a, const std::string& what, SourceLoc loc) {
  if (!a.kw.empty()) {
    if (a.kw.size() == 1 && (a.kw[0].first == "size" || a.kw[0].first == "shape" || a.kw[0].first == "dims")) {
      return to_int_list(a.kw[0].second, what, loc);
    }
    fail(loc, what + "() got an unexpected keyword argument '" + a.kw[0].first + "'");
  }
  return to_ints(a.pos, what, loc);
}

// --- creation ---

// The sizes of a factory call: torch.zeros(2, 3), torch.zeros((2, 3)), torch.zeros(size=(2, 3)).
Shape factory_size(const Bound& b, size_t star, size_t size_kw, const std::string& what, SourceLoc loc) {
  if (b.has(size_kw)) return to_int_list(b[size_kw], what, loc);
  return to_ints(items_of(b[star]), what, loc);
}

Value created(Interp& in, Shape shape, DType dtype, double fill, SourceLoc loc) {
  return t_full(in, std::move(shape), fill, dtype, loc);
}

// A random draw: shape-only in get_inputs, its own replay line in __init__, an error in forward.
Value drawn(Interp& in, Shape shape, DType dtype, const std::string& qualname, const CallArgs& args, SourceLoc loc) {
  if (in.phase == Phase::Forward) {
    fail(loc, display_name(qualname) + " in forward() draws random numbers: not supported");
  }
  check_shape(shape, loc);
  if (dtype == DType::Float64) fail(loc, "float64 tensors are not supported");
  TensorObj* t = in.new_tensor(std::move(shape), dtype, in.phase == Phase::Init ? Phase::Init : Phase::Shape);
  if (in.phase == Phase::Init) {
    std::string name = in.replay.temp();
    in.replay.text(name + " = " + in.render_call(qualname, args, loc));
    t->expr = name;
    t->prec = kPrecAtom;
    t->lvalue = true;
  }
  return in.wrap(t);
}

#define FACTORY_KWARGS "dtype=", "device=", "requires_grad=", "layout=", "pin_memory=", "memory_format=", "generator="

void check_generator(const Bound& b, size_t i, SourceLoc loc) {
  if (b.has(i)) fail(loc, "generator= is not supported (the replay draws from the default generator)");
}

Fn filled(double value, const std::string& name) {
  return [value, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"*size", "size=", FACTORY_KWARGS}, loc);
    return created(in, factory_size(b, 0, 1, name, loc), opt_dtype(b, 2, DType::Float32, name, loc), value, loc);
  };
}

Fn random(const std::string& qualname) {
  return [qualname](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    std::string name = display_name(qualname);
    Bound b = bind(in, a, name, {"*size", "size=", FACTORY_KWARGS}, loc);
    check_generator(b, 8, loc);
    return drawn(in, factory_size(b, 0, 1, name, loc), opt_dtype(b, 2, DType::Float32, name, loc), qualname, a, loc);
  };
}

Fn like(double value, const std::string& name) {
  return [value, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", FACTORY_KWARGS}, loc);
    TensorObj* t = need_tensor(b[0], name, loc);
    return created(in, t->shape, opt_dtype(b, 1, t->dtype, name, loc), value, loc);
  };
}

Fn random_like(const std::string& qualname) {
  return [qualname](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    std::string name = display_name(qualname);
    Bound b = bind(in, a, name, {"input", FACTORY_KWARGS}, loc);
    check_generator(b, 7, loc);
    TensorObj* t = need_tensor(b[0], name, loc);
    return drawn(in, t->shape, opt_dtype(b, 1, t->dtype, name, loc), qualname, a, loc);
  };
}

Value full_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.full", {"size", "fill_value", FACTORY_KWARGS}, loc);
  double v = to_float(b[1], "torch.full fill_value", loc);
  return created(in, to_int_list(b[0], "torch.full", loc), opt_dtype(b, 2, scalar_dtype(b[1]), "torch.full", loc), v,
                 loc);
}

Value full_like_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.full_like", {"input", "fill_value", FACTORY_KWARGS}, loc);
  TensorObj* t = need_tensor(b[0], "torch.full_like", loc);
  double v = to_float(b[1], "torch.full_like fill_value", loc);
  return created(in, t->shape, opt_dtype(b, 2, t->dtype, "torch.full_like", loc), v, loc);
}

Value randint_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  // randint(high, size) or randint(low, high, size); the size is the tuple among the positionals.
  Bound b = bind(in, a, "torch.randint", {"a=", "b=", "c=", "size=", "low=", "high=", FACTORY_KWARGS}, loc);
  check_generator(b, 12, loc);
  Shape shape;
  bool found = b.has(3);
  if (found) shape = to_int_list(b[3], "torch.randint size", loc);
  for (size_t i = 0; i < 3 && !found; ++i) {
    if (b.has(i) && b[i].is_seq()) {
      shape = to_int_list(b[i], "torch.randint size", loc);
      found = true;
    }
  }
  if (!found) fail(loc, "torch.randint: a size tuple is required");
  return drawn(in, shape, opt_dtype(b, 6, DType::Int64, "torch.randint", loc), "torch.randint", a, loc);
}

Value randint_like_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.randint_like", {"input", "low=", "high=", FACTORY_KWARGS}, loc);
  TensorObj* t = need_tensor(b[0], "torch.randint_like", loc);
  return drawn(in, t->shape, opt_dtype(b, 3, t->dtype, "torch.randint_like", loc), "torch.randint_like", a, loc);
}

Value normal_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.normal", {"mean", "std=", "size=", FACTORY_KWARGS}, loc);
  check_generator(b, 9, loc);
  Shape shape;
  DType dt = DType::Float32;
  if (b.has(2)) {
    shape = to_int_list(b[2], "torch.normal size", loc);
  } else if (b[0].is(Kind::Tensor)) {
    shape = tensor_of(b[0])->shape;
    dt = tensor_of(b[0])->dtype;
  } else if (b[1].is(Kind::Tensor)) {
    shape = tensor_of(b[1])->shape;
    dt = tensor_of(b[1])->dtype;
  } else {
    fail(loc, "torch.normal: a size or a tensor mean/std is required");
  }
  return drawn(in, shape, opt_dtype(b, 3, dt, "torch.normal", loc), "torch.normal", a, loc);
}

Value randperm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.randperm", {"n", FACTORY_KWARGS}, loc);
  check_generator(b, 7, loc);
  return drawn(in, {to_int(b[0], "torch.randperm", loc)}, opt_dtype(b, 1, DType::Int64, "torch.randperm", loc),
               "torch.randperm", a, loc);
}

// Deterministic tensors that forward() cannot build yet: shape-only, and replayed in __init__.
void no_forward(Interp& in, const std::string& name, SourceLoc loc) {
  if (in.phase == Phase::Forward) fail(loc, name + " in forward() is not supported yet");
}

// torch.arange(end), (start, end, step=1): int64 when start, end and step are all ints, else the default float
// type (float32); the size as ATen's arange computes it (RangeFactories.cpp): for int64 results from start, end
// and step truncated to int64, ceil((end - start + step - sign(step)) / step) in integer arithmetic (so
// arange(0, 5, 1.5, dtype=torch.int64) has 5 values), for the others ceil((end - start) / step) in double.
Value arange_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.arange", {"start", "end=", "step=", FACTORY_KWARGS}, loc);
  Value start = Value::integer(0), end = b[0], step = Value::integer(1);
  if (b.has(1)) {
    start = b[0];
    end = b[1];
  }
  if (b.has(2)) step = b[2];
  double s = to_float(start, "torch.arange", loc), e = to_float(end, "torch.arange", loc);
  double st = to_float(step, "torch.arange", loc);
  bool ints = start.is_int_like() && end.is_int_like() && step.is_int_like();
  DType dtype = opt_dtype(b, 3, ints ? DType::Int64 : DType::Float32, "torch.arange", loc);
  if (!std::isfinite(s) || !std::isfinite(e) || !std::isfinite(st)) fail(loc, "torch.arange: unsupported range (not finite)");
  int64_t n = 0;
  if (dtype == DType::Int64) {
    int64_t is = static_cast<int64_t>(s), ie = static_cast<int64_t>(e), ist = static_cast<int64_t>(st);
    if (ist == 0) fail(loc, "torch.arange: step must be nonzero");
    if ((ist > 0 && ie < is) || (ist < 0 && ie > is)) fail(loc, "torch.arange: upper bound and larger bound inconsistent with step sign");
    n = (ie - is + ist - (ist > 0 ? 1 : -1)) / ist;
  } else {
    if (st == 0) fail(loc, "torch.arange: step must be nonzero");
    if ((st > 0 && e < s) || (st < 0 && e > s)) fail(loc, "torch.arange: upper bound and larger bound inconsistent with step sign");
    n = static_cast<int64_t>(std::ceil((e - s) / st));
  }
  if (in.phase == Phase::Forward) {
    check_shape({n}, loc);
    if (n == 0) fail(loc, "torch.arange: this range is empty: tensors with no elements are not supported");
    return t_arange(in, start, step, n, dtype, loc);
  }
  return created(in, {n}, dtype, 0, loc);
}

Value linspace_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  no_forward(in, "torch.linspace", loc);
  Bound b = bind(in, a, "torch.linspace", {"start", "end", "steps", FACTORY_KWARGS}, loc);
  return created(in, {to_int(b[2], "torch.linspace", loc)}, opt_dtype(b, 3, DType::Float32, "torch.linspace", loc), 0,
                 loc);
}

Value eye_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  no_forward(in, "torch.eye", loc);
  Bound b = bind(in, a, "torch.eye", {"n", "m=", FACTORY_KWARGS}, loc);
  int64_t n = to_int(b[0], "torch.eye", loc);
  int64_t m = b.has(1) ? to_int(b[1], "torch.eye", loc) : n;
  return created(in, {n, m}, opt_dtype(b, 2, DType::Float32, "torch.eye", loc), 0, loc);
}

Shape nested_shape(const Value& v, SourceLoc loc) {
  if (!v.is_seq()) {
    if (!v.is_number()) fail(loc, "torch.tensor: expected numbers, got " + type_name(v));
    return {};
  }
  const auto& items = items_of(v);
  Shape s = {static_cast<int64_t>(items.size())};
  if (items.empty()) return s;
  Shape inner = nested_shape(items[0], loc);
  for (const Value& x : items) {
    if (nested_shape(x, loc) != inner) fail(loc, "torch.tensor: the nested lists are not rectangular");
  }
  s.insert(s.end(), inner.begin(), inner.end());
  return s;
}

Value tensor_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.tensor", {"data", FACTORY_KWARGS}, loc);
  DType dt = opt_dtype(b, 1, scalar_dtype(b[0]), "torch.tensor", loc);
  if (b[0].is(Kind::Tensor)) fail(loc, "torch.tensor(a tensor) is not supported: use .clone()");
  Shape s = nested_shape(b[0], loc);
  if (in.phase == Phase::Forward && !s.empty()) fail(loc, "torch.tensor of a list in forward() is not supported yet");
  return created(in, s, dt, s.empty() ? b[0].as_double() : 0, loc);
}

Fn triangle(const std::string& name) {
  return [name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"input", "diagonal="}, loc);
    if (in.phase == Phase::Forward) {
      int64_t diagonal = b.has(1) ? to_int(b[1], name + " diagonal", loc) : 0;
      return t_tri(in, b[0], diagonal, name == "torch.triu", loc);
    }
    TensorObj* t = need_tensor(b[0], name, loc);
    if (t->rank() < 2) fail(loc, name + ": the input must have at least 2 dims");
    return created(in, t->shape, t->dtype, 0, loc);
  };
}

Fn concat(bool stack, const std::string& name) {
  return [stack, name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, name, {"tensors", "dim=", "out="}, loc);
    if (b.has(2)) fail(loc, name + " with out= is not supported");
    std::vector<Value> ts = in.iterate(b[0], loc);
    if (in.phase == Phase::Forward) return t_cat(in, ts, b.has(1) ? to_int(b[1], name, loc) : 0, stack, name, loc);
    if (ts.empty()) fail(loc, name + ": expected a non-empty list of tensors");
    TensorObj* first = need_tensor(ts[0], name, loc);
    int rank = first->rank() + (stack ? 1 : 0);
    int64_t dim = norm_dim(b.has(1) ? to_int(b[1], name, loc) : 0, rank, loc);
    Shape out = first->shape;
    if (stack) out.insert(out.begin() + dim, static_cast<int64_t>(ts.size()));
    DType dt = first->dtype;
    for (size_t i = 1; i < ts.size(); ++i) {
      TensorObj* t = need_tensor(ts[i], name, loc);
      dt = promote(dt, t->dtype);
      Shape s = t->shape;
      bool ok = s.size() == first->shape.size();
      for (size_t k = 0; ok && k < s.size(); ++k)
        ok = stack || static_cast<int64_t>(k) == dim ? true : s[k] == first->shape[k];
      if (stack) ok = ok && s == first->shape;
      if (!ok)
        fail(loc, name + ": tensors " + shape_str(first->shape) + " and " + shape_str(s) + " do not fit together");
      if (!stack) out[static_cast<size_t>(dim)] += s[static_cast<size_t>(dim)];
    }
    return created(in, out, dt, 0, loc);
  };
}

Value manual_seed_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.manual_seed", {"seed"}, loc);
  if (in.phase == Phase::Init) in.replay.text("torch.manual_seed(" + std::to_string(to_int(b[0], "seed", loc)) + ")");
  return Value::none();
}

// --- GEMMs ---

Value mm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.mm", {"input", "mat2"}, loc);
  TensorObj* x = need_tensor(b[0], "torch.mm", loc);
  TensorObj* y = need_tensor(b[1], "torch.mm", loc);
  if (x->rank() != 2 || y->rank() != 2) {
    fail(loc, "torch.mm expects 2-D tensors, got " + shape_str(x->shape) + " and " + shape_str(y->shape));
  }
  return t_matmul(in, b[0], b[1], loc, "torch.mm");
}

Value bmm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.bmm", {"input", "mat2"}, loc);
  TensorObj* x = need_tensor(b[0], "torch.bmm", loc);
  TensorObj* y = need_tensor(b[1], "torch.bmm", loc);
  if (x->rank() != 3 || y->rank() != 3 || x->shape[0] != y->shape[0]) {
    fail(loc, "torch.bmm expects 3-D tensors with equal batch sizes, got " + shape_str(x->shape) + " and " +
                  shape_str(y->shape));
  }
  return t_matmul(in, b[0], b[1], loc, "torch.bmm");
}

Value mv_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.mv", {"input", "vec"}, loc);
  TensorObj* x = need_tensor(b[0], "torch.mv", loc);
  TensorObj* v = need_tensor(b[1], "torch.mv", loc);
  if (x->rank() != 2 || v->rank() != 1) {
    fail(loc, "torch.mv expects a 2-D matrix and a 1-D vector, got " + shape_str(x->shape) + " and " +
                  shape_str(v->shape));
  }
  return t_matmul(in, b[0], b[1], loc, "torch.mv");
}

Value matmul_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.matmul", {"input", "other"}, loc);
  return t_matmul(in, b[0], b[1], loc, "torch.matmul");
}

Value addmm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  // addmm(c, a, b, beta, alpha) => beta * c + alpha * (a @ b)
  Bound b = bind(in, a, "torch.addmm", {"input", "mat1", "mat2", "beta=", "alpha="}, loc);
  CallArgs mm;
  mm.pos = {b[1], b[2]};
  Value prod = mm_fn(in, Value(), mm, loc);
  if (b.has(4) && !(b[4].is_number() && b[4].as_double() == 1.0)) prod = t_binary(in, Op::Mul, prod, b[4], loc);
  Value c = b[0];
  if (b.has(3) && !(b[3].is_number() && b[3].as_double() == 1.0)) c = t_binary(in, Op::Mul, c, b[3], loc);
  return t_binary(in, Op::Add, prod, c, loc);
}

Value linear_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.linear", {"input", "weight", "bias="}, loc);
  return t_linear(in, b[0], b[1], b[2], loc);
}

// F.conv{1,2,3}d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) and
// F.conv_transpose{1,2,3}d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1).
BuiltinFn conv_fn(int nd, bool transposed, const std::string& fname) {
  return [nd, transposed, fname](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    ConvSpec spec;
    spec.nd = nd;
    spec.transposed = transposed;
    Value x, w, bias, groups;
    if (!transposed) {
      Bound b = bind(in, a, fname, {"input", "weight", "bias=", "stride=", "padding=", "dilation=", "groups="}, loc);
      x = b[0], w = b[1], bias = b[2], spec.stride = b[3], spec.padding = b[4], spec.dilation = b[5], groups = b[6];
    } else {
      Bound b = bind(in, a, fname,
                     {"input", "weight", "bias=", "stride=", "padding=", "output_padding=", "groups=", "dilation="}, loc);
      x = b[0], w = b[1], bias = b[2], spec.stride = b[3], spec.padding = b[4], spec.output_padding = b[5];
      groups = b[6], spec.dilation = b[7];
    }
    if (!groups.is_none()) spec.groups = to_int(groups, fname + " groups", loc);
    return t_conv(in, fname, x, w, bias, spec, loc);
  };
}

// --- torch.nn.functional ---

Value gelu_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.gelu", {"input", "approximate="}, loc);
  std::string approx = b.has(1) ? to_str(b[1], "F.gelu approximate", loc) : "none";
  return t_gelu(in, b[0], approx, loc);
}

Value silu_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.silu", {"input", "inplace="}, loc);
  check_inplace(b, 1, "F.silu", loc);
  return t_silu(in, b[0], loc);
}

// F.<activation>(input, options..., inplace=): options positional or by keyword, with PyTorch's defaults.
Fn activation_fn(const ActivationSpec& spec, const std::string& shown) {
  return [&spec, shown](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    std::vector<std::string> params = {"input"};
    for (const auto& [name, dflt] : spec.options) params.push_back(std::string(name) + "=");
    if (spec.inplace) params.push_back("inplace=");
    Bound b = tracer::bind(in, a, shown, params, loc);  // qualified: ADL would find std::bind
    if (spec.inplace) check_inplace(b, spec.options.size() + 1, shown, loc);
    std::vector<double> opts;
    for (size_t i = 0; i < spec.options.size(); ++i) {
      opts.push_back(b.has(i + 1) ? to_float(b[i + 1], shown + " " + spec.options[i].first, loc)
                                  : spec.options[i].second);
    }
    return t_named_activation(in, spec, b[0], opts, loc);
  };
}

Value layer_norm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.layer_norm", {"input", "normalized_shape", "weight=", "bias=", "eps="}, loc);
  double eps = b.has(4) ? to_float(b[4], "F.layer_norm eps", loc) : 1e-5;
  return t_layer_norm(in, b[0], to_int_list(b[1], "F.layer_norm normalized_shape", loc), b[2], b[3], eps, loc);
}

Value batch_norm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.batch_norm",
                 {"input", "running_mean", "running_var", "weight=", "bias=", "training=", "momentum=", "eps="}, loc);
  bool training = opt_bool(b, 5, false, "F.batch_norm training", loc);
  Value momentum = b.has(6) ? Value::floating(to_float(b[6], "F.batch_norm momentum", loc)) : Value::floating(0.1);
  double eps = b.has(7) ? to_float(b[7], "F.batch_norm eps", loc) : 1e-5;
  return t_batch_norm(in, b[0], b[1], b[2], b[3], b[4], training, momentum, eps, loc);
}

Value instance_norm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.instance_norm",
                 {"input", "running_mean=", "running_var=", "weight=", "bias=", "use_input_stats=", "momentum=", "eps="},
                 loc);
  if (b.has(1) || b.has(2)) fail(loc, "F.instance_norm with running statistics is not supported");
  if (!opt_bool(b, 5, true, "F.instance_norm use_input_stats", loc))
    fail(loc, "F.instance_norm with use_input_stats=False is not supported");
  double eps = b.has(7) ? to_float(b[7], "F.instance_norm eps", loc) : 1e-5;
  TensorObj* t = need_tensor(b[0], "F.instance_norm", loc);
  if (t->rank() < 3) fail(loc, "F.instance_norm expects an input [N, C, ...] with at least 3 dims, got " + shape_str(t->shape));
  return t_group_norm(in, b[0], t->shape[1], b[3], b[4], eps, "instance_norm", loc);
}

Value group_norm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.group_norm", {"input", "num_groups", "weight=", "bias=", "eps="}, loc);
  double eps = b.has(4) ? to_float(b[4], "F.group_norm eps", loc) : 1e-5;
  return t_group_norm(in, b[0], to_int(b[1], "F.group_norm num_groups", loc), b[2], b[3], eps, "group_norm", loc);
}

// The p of a norm: a number (inf included) or 'fro' (the 2-norm over the given dims).
double norm_order(const Value& v, double dflt, const std::string& what, SourceLoc loc) {
  if (v.is_none()) return dflt;
  if (v.is(Kind::Str)) {
    if (str_of(v) == "fro") return 2.0;
    fail(loc, what + "='" + str_of(v) + "' is not supported (numbers and 'fro' are)");
  }
  return to_float(v, what, loc);
}

Value norm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.norm", {"input", "p=", "dim=", "keepdim=", "out=", "dtype="}, loc);
  if (b.has(4)) fail(loc, "torch.norm with out= is not supported");
  Value x = b[0];
  if (b.has(5)) x = t_cast(in, x, to_dtype(b[5], "torch.norm dtype", loc), loc);
  double p = norm_order(b[1], 2.0, "torch.norm p", loc);
  return t_norm(in, x, p, dims_arg(b[2], "torch.norm dim", loc), opt_bool(b, 3, false, "torch.norm keepdim", loc),
                "torch.norm", loc);
}

Value vector_norm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.linalg.vector_norm", {"x", "ord=", "dim=", "keepdim=", "out=", "dtype="}, loc);
  if (b.has(4)) fail(loc, "torch.linalg.vector_norm with out= is not supported");
  Value x = b[0];
  if (b.has(5)) x = t_cast(in, x, to_dtype(b[5], "torch.linalg.vector_norm dtype", loc), loc);
  if (b.has(1) && b[1].is(Kind::Str)) fail(loc, "torch.linalg.vector_norm: ord must be a number");
  double p = norm_order(b[1], 2.0, "torch.linalg.vector_norm ord", loc);
  return t_norm(in, x, p, dims_arg(b[2], "torch.linalg.vector_norm dim", loc),
                opt_bool(b, 3, false, "torch.linalg.vector_norm keepdim", loc), "torch.linalg.vector_norm", loc);
}

// torch.linalg.norm: a vector norm over one dim (or of a 1-D input), the 2-norm of the flattened input when
// neither ord nor dim is given, and the Frobenius norm as a matrix norm; other matrix norms are refused.
Value linalg_norm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "torch.linalg.norm", {"A", "ord=", "dim=", "keepdim=", "out=", "dtype="}, loc);
  if (b.has(4)) fail(loc, "torch.linalg.norm with out= is not supported");
  Value x = b[0];
  if (b.has(5)) x = t_cast(in, x, to_dtype(b[5], "torch.linalg.norm dtype", loc), loc);
  TensorObj* t = need_tensor(x, "torch.linalg.norm", loc);
  bool keepdim = opt_bool(b, 3, false, "torch.linalg.norm keepdim", loc);
  std::optional<std::vector<int64_t>> dims = dims_arg(b[2], "torch.linalg.norm dim", loc);
  bool vector = dims ? dims->size() == 1 : t->rank() == 1;
  if (!b.has(1)) return t_norm(in, x, 2.0, dims, keepdim, "torch.linalg.norm", loc);
  if (vector) {
    if (b[1].is(Kind::Str)) fail(loc, "torch.linalg.norm: ord='" + str_of(b[1]) + "' is a matrix norm, the input a vector");
    return t_norm(in, x, to_float(b[1], "torch.linalg.norm ord", loc), dims, keepdim, "torch.linalg.norm", loc);
  }
  if (!dims && t->rank() != 2) fail(loc, "torch.linalg.norm with ord and no dim needs a 1-D or 2-D input");
  if (dims && dims->size() != 2) fail(loc, "torch.linalg.norm: dim must name 1 or 2 dims");
  if (!b[1].is(Kind::Str) || str_of(b[1]) != "fro") {
    fail(loc, "torch.linalg.norm: the matrix norm ord=" + literal_repr(b[1]) +
                  " is not supported (only 'fro')");
  }
  return t_norm(in, x, 2.0, dims, keepdim, "torch.linalg.norm", loc);
}

// F.normalize(x, p, dim, eps) => x / max(norm_p(x, dim, keepdim), eps)
Value normalize_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.normalize", {"input", "p=", "dim=", "eps=", "out="}, loc);
  if (b.has(4)) fail(loc, "F.normalize with out= is not supported");
  double p = b.has(1) ? to_float(b[1], "F.normalize p", loc) : 2.0;
  int64_t dim = b.has(2) ? to_int(b[2], "F.normalize dim", loc) : 1;
  double eps = b.has(3) ? to_float(b[3], "F.normalize eps", loc) : 1e-12;
  Value n = t_norm(in, b[0], p, std::vector<int64_t>{dim}, true, "F.normalize", loc);
  return t_binary(in, Op::Div, b[0], t_clamp(in, n, Value::floating(eps), Value::none(), loc), loc);
}

Value rms_norm_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.rms_norm", {"input", "normalized_shape", "weight=", "eps="}, loc);
  std::optional<double> eps;
  if (b.has(3)) eps = to_float(b[3], "F.rms_norm eps", loc);
  return t_rms_norm(in, b[0], to_int_list(b[1], "F.rms_norm normalized_shape", loc), b[2], eps, loc);
}

Value dropout_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "F.dropout", {"input", "p=", "training=", "inplace="}, loc);
  double p = b.has(1) ? to_float(b[1], "F.dropout p", loc) : 0.5;
  bool training = opt_bool(b, 2, true, "F.dropout", loc);
  if (p != 0.0 && training) fail(loc, "F.dropout with p > 0 in training mode is random: not supported");
  return b[0];
}

Value sdpa_fn(Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
  const std::string f = "F.scaled_dot_product_attention";
  Bound b = bind(in, a, f,
                 {"query", "key", "value", "attn_mask=", "dropout_p=", "is_causal=", "scale=", "enable_gqa="}, loc);
  if (b.has(4) && to_float(b[4], f + " dropout_p", loc) != 0.0) {
    fail(loc, f + " with dropout_p > 0 is random: not supported (only dropout_p=0.0)");
  }
  if (opt_bool(b, 7, false, f, loc)) fail(loc, f + " with enable_gqa=True is not supported");
  double scale = b.has(6) ? to_float(b[6], f + " scale", loc) : std::nan("");
  return t_attention(in, b[0], b[1], b[2], b.has(3) ? b[3] : Value::none(), opt_bool(b, 5, false, f, loc), scale,
                     loc);
}

// --- Tensor attributes ---

Value inplace_method(Interp& in, const std::string& name, const Value& self, CallArgs& a, SourceLoc loc) {
  TensorObj* t = tensor_of(self);
  if (t->node || in.phase == Phase::Forward) {
    std::string base = name.substr(0, name.size() - 1);
    fail(loc,
         "Tensor." + name + " is an in-place operation: not supported in forward() (write x = x." + base + "(...))");
  }
  if (in.phase == Phase::Init && t->phase == Phase::Init) {
    in.before_mutation(t, loc);
    std::string target = in.tensor_expr(self, kPrecPostfix, loc);
    // In-place on a parameter must bypass autograd, as the original did under no_grad().
    bool data = target.size() >= 5 && target.compare(target.size() - 5, 5, ".data") == 0;
    if (t->is_param && !data) target += ".data";
    in.replay.text(in.render_call(target + "." + name, a, loc));
  }
  return self;
}

}  // namespace

Value tensor_attr(Interp& in, const Value& self, const std::string& name, SourceLoc loc) {
  TensorObj* t = tensor_of(self);
  auto init_view = [&](Value r, const std::string& suffix, bool identity) {
    TensorObj* rt = tensor_of(r);
    if (in.phase == Phase::Init && !rt->node && !t->expr.empty() && rt != t) {
      in.set_init_expr(rt, in.tensor_expr(self, kPrecPostfix, loc) + suffix, kPrecPostfix, {self});
      Interp* ip = &in;
      in.make_view(rt, t, identity,
                   [ip, self, suffix, loc] { return ip->tensor_expr(self, kPrecPostfix, loc) + suffix; });
    }
    return r;
  };
  if (name == "shape") {
    std::vector<Value> dims;
    for (int64_t d : t->shape) dims.push_back(Value::integer(d));
    return in.tuple(std::move(dims));
  }
  if (name == "dtype") return Value::dtype_value(t->dtype);
  if (name == "ndim") return Value::integer(t->rank());
  if (name == "T") {
    std::vector<int64_t> perm;
    for (int i = t->rank() - 1; i >= 0; --i) perm.push_back(i);
    return init_view(t_permute(in, self, perm, loc), ".T", false);
  }
  if (name == "mT") {
    if (t->rank() < 2) fail(loc, "Tensor.mT needs at least 2 dims, got " + shape_str(t->shape));
    return init_view(t_transpose(in, self, -2, -1, loc), ".mT", false);
  }
  if (name == "data") {
    if (in.phase != Phase::Init || t->phase != Phase::Init) return self;
    return init_view(in.wrap(in.new_tensor(t->shape, t->dtype, Phase::Shape)), ".data", true);
  }
  if (name == "device") {
    auto* d = in.heap.make<DeviceObj>();
    d->spec = "cuda";
    return Value::of(Kind::Device, d);
  }
  if (name == "is_cuda") return Value::boolean(true);
  if (name == "requires_grad") return Value::boolean(t->is_param && t->requires_grad);
  if (name == "grad") return Value::none();
  auto it = in.tensor_methods.find(name);
  if (it != in.tensor_methods.end()) {
    Value m = in.bound_native(self, "Tensor." + name, it->second);
    m.as<BuiltinObj>()->replay = "." + name;
    m.as<BuiltinObj>()->is_view = is_view_op(name);
    return m;
  }
  if (name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_') {
    return in.bound_native(self, "Tensor." + name, [name](Interp& in, const Value& s, CallArgs& a, SourceLoc l) {
      return inplace_method(in, name, s, a, l);
    });
  }
  return in.unknown("Tensor." + name);
}

void register_torch(Interp& in) {
  for (const char* ns :
       {"torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.linalg", "torch.special", "torch.cuda", "math",
        "collections"}) {
    in.registry[ns] = in.namespace_value(ns);
  }
  const std::pair<const char*, DType> dtypes[] = {
      {"float32", DType::Float32},   {"float", DType::Float32},   {"float16", DType::Float16}, {"half", DType::Float16},
      {"bfloat16", DType::BFloat16}, {"float64", DType::Float64}, {"double", DType::Float64},  {"int32", DType::Int32},
      {"int", DType::Int32},         {"int64", DType::Int64},     {"long", DType::Int64},      {"bool", DType::Bool}};
  for (const auto& [name, t] : dtypes) in.registry[std::string("torch.") + name] = Value::dtype_value(t);
  in.registry["torch.pi"] = Value::floating(M_PI);
  in.registry["torch.e"] = Value::floating(M_E);
  in.registry["torch.inf"] = Value::floating(INFINITY);
  in.registry["torch.nan"] = Value::floating(NAN);

  in.tensor_class = in.builtin_class("Tensor");
  in.tensor_class->ctor = [](Interp&, const Value&, CallArgs&, SourceLoc loc) -> Value {
    fail(loc, "torch.Tensor(...) is not supported: use torch.empty or torch.tensor");
  };
  in.registry["torch.Tensor"] = Value::of(Kind::Class, in.tensor_class);
  in.registry["torch.Size"] = in.builtins.at("tuple");
  def_fn(in, "torch.device", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.device", {"type", "index="}, loc);
    auto* d = in.heap.make<DeviceObj>();
    d->spec = b[0].is(Kind::Device) ? b[0].as<DeviceObj>()->spec : to_str(b[0], "torch.device", loc);
    if (b.has(1)) d->spec += ":" + std::to_string(to_int(b[1], "torch.device index", loc));
    return Value::of(Kind::Device, d);
  });
  in.registry["torch.device"].as<BuiltinObj>()->replay.clear();
  // Gradient modes: the with-statement runs the body; as decorators they are ignored anyway.
  for (const char* name : {"torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.set_grad_enabled"}) {
    in.registry[name] = in.native(
        name, [](Interp& in, const Value&, CallArgs&, SourceLoc) { return in.namespace_value("<grad mode>"); });
  }
  in.registry["torch.cuda.is_available"] = in.native(
      "torch.cuda.is_available", [](Interp&, const Value&, CallArgs&, SourceLoc) { return Value::boolean(true); });
  // torch.finfo / torch.iinfo: named tuples of the limits.
  def_fn(in, "torch.finfo", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.finfo", {"type="}, loc);
    DType t = b.has(0) ? to_dtype(b[0], "torch.finfo", loc) : DType::Float32;
    double eps, max, tiny;
    switch (t) {
      case DType::Float16: eps = 0.0009765625, max = 65504.0, tiny = 6.103515625e-05; break;
      case DType::BFloat16: eps = 0.0078125, max = 3.3895313892515355e+38, tiny = 1.1754943508222875e-38; break;
      case DType::Float32:
        eps = 1.1920928955078125e-07, max = 3.4028234663852886e+38, tiny = 1.1754943508222875e-38;
        break;
      default: fail(loc, std::string("torch.finfo of ") + torch_dtype_name(t) + " (not a floating dtype)");
    }
    return in.tuple({Value::floating(eps), Value::floating(max), Value::floating(-max), Value::floating(tiny)},
                    {"eps", "max", "min", "tiny"});
  });
  def_fn(in, "torch.iinfo", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.iinfo", {"type"}, loc);
    DType t = to_dtype(b[0], "torch.iinfo", loc);
    if (t == DType::Int32) return in.tuple({Value::integer(INT32_MAX), Value::integer(INT32_MIN)}, {"max", "min"});
    if (t == DType::Int64) return in.tuple({Value::integer(INT64_MAX), Value::integer(INT64_MIN)}, {"max", "min"});
    fail(loc, std::string("torch.iinfo of ") + torch_dtype_name(t) + " (not an integer dtype)");
  });
  in.registry["torch.is_tensor"] = in.native("torch.is_tensor", [](Interp&, const Value&, CallArgs& a, SourceLoc) {
    return Value::boolean(!a.pos.empty() && a.pos[0].is(Kind::Tensor));
  });
  def_fn(in, "torch.manual_seed", manual_seed_fn);
  in.registry["torch.manual_seed"].as<BuiltinObj>()->replay.clear();

  // elementwise
  const std::pair<const char*, Op> unaries[] = {{"abs", Op::Abs},         {"neg", Op::Neg},
                                                {"negative", Op::Neg},    {"exp", Op::Exp},
                                                {"log", Op::Log},         {"sqrt", Op::Sqrt},
                                                {"rsqrt", Op::Rsqrt},     {"sin", Op::Sin},
                                                {"cos", Op::Cos},         {"tanh", Op::Tanh},
                                                {"sigmoid", Op::Sigmoid}, {"relu", Op::Relu},
                                                {"erf", Op::Erf},         {"logical_not", Op::LogicalNot},
                                                {"expm1", Op::Expm1},     {"log1p", Op::Log1p},
                                                {"log2", Op::Log2},       {"exp2", Op::Exp2},
                                                {"floor", Op::Floor},     {"ceil", Op::Ceil}};
  for (const auto& [name, op] : unaries) def_both(in, name, unary(op, name));
  for (const char* name : {"sigmoid", "tanh"}) {
    def_fn(in, std::string("torch.nn.functional.") + name,
           in.registry.at(std::string("torch.") + name).as<BuiltinObj>()->fn);
  }
  def_fn(in, "torch.nn.functional.relu", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "F.relu", {"input", "inplace="}, loc);
    check_inplace(b, 1, "F.relu", loc);
    return t_unary(in, Op::Relu, b[0], loc);
  });
  def_both(in, "square", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "square", {"input"}, loc);
    return t_binary(in, Op::Mul, b[0], b[0], loc);
  });
  def_both(in, "reciprocal", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "reciprocal", {"input"}, loc);
    return t_binary(in, Op::Div, Value::floating(1.0), b[0], loc);
  });
  const std::tuple<const char*, Op, bool> binaries[] = {{"add", Op::Add, true},
                                                        {"sub", Op::Sub, true},
                                                        {"subtract", Op::Sub, true},
                                                        {"mul", Op::Mul, false},
                                                        {"multiply", Op::Mul, false},
                                                        {"div", Op::Div, false},
                                                        {"divide", Op::Div, false},
                                                        {"true_divide", Op::Div, false},
                                                        {"maximum", Op::Maximum, false},
                                                        {"minimum", Op::Minimum, false},
                                                        {"fmax", Op::Maximum, false},
                                                        {"fmin", Op::Minimum, false},
                                                        {"eq", Op::Eq, false},
                                                        {"ne", Op::Ne, false},
                                                        {"not_equal", Op::Ne, false},
                                                        {"lt", Op::Lt, false},
                                                        {"less", Op::Lt, false},
                                                        {"le", Op::Le, false},
                                                        {"less_equal", Op::Le, false},
                                                        {"gt", Op::Gt, false},
                                                        {"greater", Op::Gt, false},
                                                        {"ge", Op::Ge, false},
                                                        {"greater_equal", Op::Ge, false},
                                                        {"logical_and", Op::LogicalAnd, false},
                                                        {"logical_or", Op::LogicalOr, false}};
  for (const auto& [name, op, alpha] : binaries) def_both(in, name, binary(op, name, alpha));
  def_both(in, "pow", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "pow", {"input", "exponent"}, loc);
    return t_binary(in, Op::Pow, b[0], b[1], loc);
  });
  def_fn(in, "torch.where", where_fn);
  def_method(in, "where", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "Tensor.where", {"self", "condition", "other"}, loc);
    return t_where(in, b[1], b[0], b[2], loc);
  });
  def_both(in, "masked_fill", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    // masked_fill(x, mask, v) => where(mask, v, x)
    Bound b = bind(in, a, "masked_fill", {"input", "mask", "value"}, loc);
    return t_where(in, b[1], b[2], b[0], loc);
  });
  def_both(in, "clamp", clamp_fn);
  def_both(in, "clip", clamp_fn);
  def_both(in, "clamp_min", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "clamp_min", {"input", "min"}, loc);
    return t_clamp(in, b[0], b[1], Value::none(), loc);
  });
  def_both(in, "clamp_max", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "clamp_max", {"input", "max"}, loc);
    return t_clamp(in, b[0], Value::none(), b[1], loc);
  });

  // reductions
  def_both(in, "sum", reduce(Op::Sum, "sum"));
  def_both(in, "mean", reduce(Op::Mean, "mean"));
  def_both(in, "prod", reduce(Op::Prod, "prod"));
  def_both(in, "var", variance(false));
  def_fn(in, "torch.var_mean", variance(false, true));
  def_fn(in, "torch.std_mean", variance(true, true));
  def_both(in, "logsumexp", logsumexp_fn);
  def_fn(in, "torch.special.logsumexp", logsumexp_fn);
  def_fn(in, "torch.nn.functional.softmin", softmin_fn);
  def_fn(in, "torch.nn.functional.glu", glu_fn);
  for (const char* f : {"torch.prelu", "torch.nn.functional.prelu"}) {
    def_fn(in, f, [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, "prelu", {"input", "weight"}, loc);
      return t_prelu(in, b[0], b[1], loc);
    });
  }
  // torch.xlogy(x, y): ATen's x * log(y) with 0 where x == 0 and NaN where y is NaN (either may be a number).
  def_both(in, "xlogy", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "xlogy", {"input", "other"}, loc);
    Value x = b[0], y = b[1];
    if (!x.is(Kind::Tensor) && !y.is(Kind::Tensor)) fail(loc, "xlogy: one of its arguments must be a tensor");
    auto as_float = [&](const Value& v) {  // (a number: a 0-d float32 tensor)
      if (!v.is(Kind::Tensor)) return t_full(in, {}, to_float(v, "xlogy", loc), DType::Float32, loc);
      return is_floating(tensor_of(v)->dtype) ? v : t_cast(in, v, DType::Float32, loc);
    };
    x = as_float(x), y = as_float(y);
    Value prod = t_binary(in, Op::Mul, x, t_unary(in, Op::Log, y, loc), loc);
    Value r = t_where(in, t_binary(in, Op::Eq, x, Value::floating(0.0), loc), Value::floating(0.0), prod, loc);
    return t_where(in, t_binary(in, Op::Ne, y, y, loc), Value::floating(NAN), r, loc);
  });
  def_both(in, "aminmax", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "aminmax", {"input", "dim=", "keepdim="}, loc);
    std::optional<std::vector<int64_t>> dims;
    if (b.has(1)) dims = std::vector<int64_t>{to_int(b[1], "aminmax dim", loc)};
    bool keep = opt_bool(b, 2, false, "aminmax", loc);
    return in.tuple({t_reduce(in, Op::Min, b[0], dims, keep, loc), t_reduce(in, Op::Max, b[0], dims, keep, loc)},
                    {"min", "max"});
  });
  def_both(in, "std", variance(true));
  def_both(in, "amax", amax(Op::Max, "amax"));
  def_both(in, "amin", amax(Op::Min, "amin"));
  def_both(in, "max", max_min(Op::Max, Op::Maximum, Op::ArgMax, "max"));
  def_both(in, "min", max_min(Op::Min, Op::Minimum, Op::ArgMin, "min"));
  def_both(in, "argmax", arg_reduce(Op::ArgMax, "argmax"));
  def_both(in, "argmin", arg_reduce(Op::ArgMin, "argmin"));
  def_both(in, "cumsum", scan(Op::Cumsum, "cumsum"));
  def_both(in, "cumprod", scan(Op::Cumprod, "cumprod"));
  def_both(in, "softmax", softmax(Op::Softmax, "softmax"));
  def_both(in, "log_softmax", softmax(Op::LogSoftmax, "log_softmax"));
  def_fn(in, "torch.nn.functional.softmax", softmax(Op::Softmax, "F.softmax"));
  def_fn(in, "torch.nn.functional.log_softmax", softmax(Op::LogSoftmax, "F.log_softmax"));

  // casts
  const std::pair<const char*, DType> casts[] = {
      {"float", DType::Float32}, {"half", DType::Float16}, {"bfloat16", DType::BFloat16}, {"double", DType::Float64},
      {"int", DType::Int32},     {"long", DType::Int64},   {"bool", DType::Bool}};
  for (const auto& [name, t] : casts) {
    DType to = t;
    in.tensor_methods[name] = [to](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
      return cast_to(to, in, self, a, loc);
    };
  }
  in.tensor_methods["to"] = to_fn;
  in.tensor_methods["type"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "Tensor.type", {"dtype=", "non_blocking="}, loc);
    if (!b.has(0)) fail(loc, "Tensor.type() without a dtype is not supported");
    return t_cast(in, self, to_dtype(b[0], "Tensor.type", loc), loc);
  };
  in.tensor_methods["type_as"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "Tensor.type_as", {"other"}, loc);
    return t_cast(in, self, need_tensor(b[0], "Tensor.type_as", loc)->dtype, loc);
  };
  for (const char* name : {"contiguous", "clone", "detach", "cuda", "cpu"}) {
    std::string method = name;
    in.tensor_methods[name] = [method](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
      // their arguments (memory_format, non_blocking) are keywords, but cuda's device, and change no value here
      if (a.pos.size() > (method == "cuda" ? 1u : 0u)) fail(loc, "Tensor." + method + "(): unexpected positional argument");
      return method == "contiguous" ? contiguous_fn(in, self, a, loc) : identity(in, self, a, loc);
    };
  }
  in.tensor_methods["is_floating_point"] = [](Interp&, const Value& self, CallArgs&, SourceLoc) {
    return Value::boolean(is_floating(tensor_of(self)->dtype));
  };
  // any/all: a bool max/min of (x != 0), a tensor like any other reduction (a truth test of it, `if x.any():`,
  // fails where it happens: truthy)
  for (const char* name : {"any", "all"}) {
    std::string n = name;
    def_both(in, name, [n](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, n, {"input", "dim=", "keepdim="}, loc);
      Value x = b[0];
      if (need_tensor(x, n, loc)->dtype != DType::Bool) x = t_binary(in, Op::Ne, x, Value::integer(0), loc);
      return t_reduce(in, n == "any" ? Op::Max : Op::Min, x, dims_arg(b[1], n + " dim", loc),
                      opt_bool(b, 2, false, n, loc), loc);
    });
  }
  for (const char* name : {"item", "tolist", "numpy", "nonzero", "stride", "data_ptr", "is_contiguous",
                           "storage_offset", "unique"}) {
    std::string n = name;
    in.tensor_methods[name] = [n](Interp&, const Value&, CallArgs&, SourceLoc loc) -> Value {
      bool data = n == "item" || n == "tolist" || n == "numpy" || n == "nonzero" || n == "unique";
      fail(loc, "Tensor." + n + "() is not supported" +
                    std::string(data ? ": it depends on the tensor's data" : ": strides are not known when tracing"));
    };
  }

  // shape queries
  in.tensor_methods["size"] = size_fn;
  for (const char* name : {"dim", "ndimension"}) {
    in.tensor_methods[name] = [](Interp&, const Value& self, CallArgs&, SourceLoc) {
      return Value::integer(tensor_of(self)->rank());
    };
  }
  for (const char* name : {"numel", "nelement"}) {
    in.tensor_methods[name] = [](Interp&, const Value& self, CallArgs&, SourceLoc) {
      return Value::integer(numel(tensor_of(self)->shape));
    };
  }
  in.registry["torch.numel"] = in.native("torch.numel", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "torch.numel takes one tensor");
    return Value::integer(numel(need_tensor(a.pos[0], "torch.numel", loc)->shape));
  });
  in.tensor_methods["element_size"] = [](Interp&, const Value& self, CallArgs&, SourceLoc) {
    return Value::integer(dtype_size(tensor_of(self)->dtype));
  };

  // views
  for (const char* name : {"view", "reshape"}) {
    std::string n = name;
    in.tensor_methods[name] = [n](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
      if (a.pos.size() == 1 && a.pos[0].is(Kind::DType)) fail(loc, "Tensor.view(dtype) is not supported");
      return t_reshape(in, self, varargs_ints(a, "Tensor." + n, loc), loc);
    };
  }
  def_fn(in, "torch.reshape", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.reshape", {"input", "shape"}, loc);
    return t_reshape(in, b[0], to_int_list(b[1], "torch.reshape", loc), loc);
  });
  for (const char* name : {"view_as", "reshape_as"}) {
    in.tensor_methods[name] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, "Tensor.view_as", {"other"}, loc);
      return t_reshape(in, self, need_tensor(b[0], "Tensor.view_as", loc)->shape, loc);
    };
  }
  in.tensor_methods["expand"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    return t_expand(in, self, varargs_ints(a, "Tensor.expand", loc), loc);
  };
  in.tensor_methods["expand_as"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "Tensor.expand_as", {"other"}, loc);
    return t_expand(in, self, need_tensor(b[0], "Tensor.expand_as", loc)->shape, loc);
  };
  in.tensor_methods["permute"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    return t_permute(in, self, varargs_ints(a, "Tensor.permute", loc), loc);
  };
  def_fn(in, "torch.permute", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.permute", {"input", "dims"}, loc);
    return t_permute(in, b[0], to_int_list(b[1], "torch.permute", loc), loc);
  });
  for (const char* name : {"transpose", "swapaxes", "swapdims"}) {
    std::string n = name;
    def_both(in, name, [n](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, n, {"input", "dim0", "dim1"}, loc);
      return t_transpose(in, b[0], to_int(b[1], n, loc), to_int(b[2], n, loc), loc);
    });
  }
  def_both(in, "t", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "t", {"input"}, loc);
    TensorObj* t = need_tensor(b[0], "t", loc);
    if (t->rank() > 2) fail(loc, "t() expects a tensor with at most 2 dims, got " + shape_str(t->shape));
    return t_transpose(in, b[0], 0, -1, loc);
  });
  def_both(in, "unsqueeze", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "unsqueeze", {"input", "dim"}, loc);
    return t_unsqueeze(in, b[0], to_int(b[1], "unsqueeze", loc), loc);
  });
  def_both(in, "squeeze", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "squeeze", {"input", "dim="}, loc);
    std::optional<std::vector<int64_t>> dims;
    if (b.has(1)) dims = to_int_list(b[1], "squeeze", loc);
    return t_squeeze(in, b[0], dims, loc);
  });
  def_fn(in, "torch.flip", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.flip", {"input", "dims"}, loc);
    return t_flip(in, b[0], to_int_list(b[1], "torch.flip dims", loc), loc);
  });
  in.tensor_methods["flip"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.kw.size() == 1 && a.kw[0].first == "dims" && a.pos.empty()) {
      return t_flip(in, self, to_int_list(a.kw[0].second, "Tensor.flip dims", loc), loc);
    }
    return t_flip(in, self, varargs_ints(a, "Tensor.flip", loc), loc);
  };
  def_both(in, "narrow", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "narrow", {"input", "dim", "start", "length"}, loc);
    return t_narrow(in, b[0], to_int(b[1], "narrow dim", loc), to_int(b[2], "narrow start", loc),
                    to_int(b[3], "narrow length", loc), loc);
  });
  def_both(in, "select", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "select", {"input", "dim", "index"}, loc);
    return t_select(in, b[0], to_int(b[1], "select dim", loc), to_int(b[2], "select index", loc), loc);
  });
  def_both(in, "flatten", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "flatten", {"input", "start_dim=", "end_dim="}, loc);
    int64_t start = b.has(1) ? to_int(b[1], "flatten", loc) : 0;
    int64_t end = b.has(2) ? to_int(b[2], "flatten", loc) : -1;
    return t_flatten(in, b[0], start, end, loc);
  });
  // unflatten(dim, sizes): a reshape of dim into sizes (one of them may be -1)
  def_both(in, "unflatten", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "unflatten", {"input", "dim", "sizes"}, loc);
    TensorObj* t = need_tensor(b[0], "unflatten", loc);
    int64_t d = norm_dim(to_int(b[1], "unflatten dim", loc), t->rank(), loc);
    std::vector<int64_t> sizes = to_int_list(b[2], "unflatten sizes", loc);
    if (sizes.empty()) fail(loc, "unflatten: sizes must not be empty");
    std::vector<int64_t> shape(t->shape.begin(), t->shape.begin() + d);
    shape.insert(shape.end(), sizes.begin(), sizes.end());
    shape.insert(shape.end(), t->shape.begin() + d + 1, t->shape.end());
    return t_reshape(in, b[0], shape, loc);
  });

  // pieces (tuples of views) and shape functions (shape_functions.cpp)
  def_both(in, "chunk", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "chunk", {"input", "chunks", "dim="}, loc);
    return t_chunk(in, b[0], to_int(b[1], "chunk chunks", loc), b.has(2) ? to_int(b[2], "chunk dim", loc) : 0, loc);
  });
  // torch.split(tensor, split_size_or_sections, dim=0) and Tensor.split(split_size, dim=0): an int or sizes.
  for (bool method : {false, true}) {
    const char* sizes_name = method ? "split_size" : "split_size_or_sections";
    Fn fn = [sizes_name](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, "split", {"tensor", sizes_name, "dim="}, loc);
      int64_t dim = b.has(2) ? to_int(b[2], "split dim", loc) : 0;
      if (b[1].is_seq()) return t_split_sizes(in, b[0], to_int_list(b[1], "split sizes", loc), dim, loc);
      return t_split(in, b[0], to_int(b[1], "split split_size", loc), dim, "split", loc);
    };
    if (method) def_method(in, "split", fn);
    else def_fn(in, "torch.split", fn);
  }
  def_both(in, "unbind", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "unbind", {"input", "dim="}, loc);
    return t_unbind(in, b[0], b.has(1) ? to_int(b[1], "unbind dim", loc) : 0, loc);
  });
  def_fn(in, "torch.nn.functional.pad", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "F.pad", {"input", "pad", "mode=", "value="}, loc);
    std::string mode = b.has(2) ? to_str(b[2], "F.pad mode", loc) : "constant";
    double value = b.has(3) ? to_float(b[3], "F.pad value", loc) : 0.0;
    return t_pad(in, b[0], to_int_list(b[1], "F.pad pad", loc), mode, value, loc);
  });
  for (bool unshuffle : {false, true}) {
    std::string f = unshuffle ? "pixel_unshuffle" : "pixel_shuffle";
    auto fn = [unshuffle, f](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, f, {"input", unshuffle ? "downscale_factor" : "upscale_factor"}, loc);
      return t_pixel_shuffle(in, b[0], to_int(b[1], f + " factor", loc), unshuffle, loc);
    };
    def_fn(in, "torch." + f, fn);
    def_fn(in, "torch.nn.functional." + f, fn);
  }
  for (const char* f : {"torch.channel_shuffle", "torch.nn.functional.channel_shuffle", "torch.native_channel_shuffle"}) {
    def_fn(in, f, [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, "channel_shuffle", {"input", "groups"}, loc);
      return t_channel_shuffle(in, b[0], to_int(b[1], "channel_shuffle groups", loc), loc);
    });
  }
  for (const char* f : {"movedim", "moveaxis"}) {
    def_both(in, f, [f](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, f, {"input", "source", "destination"}, loc);
      auto dims = [&](const Value& v) {
        return v.is(Kind::Int) ? std::vector<int64_t>{v.as_int()} : to_int_list(v, std::string(f) + " dims", loc);
      };
      return t_movedim(in, b[0], dims(b[1]), dims(b[2]), loc);
    });
  }
  def_both(in, "roll", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "roll", {"input", "shifts", "dims="}, loc);
    return t_roll(in, b[0], to_int_list(b[1], "roll shifts", loc), dims_arg(b[2], "roll dims", loc), loc);
  });
  // Tensor.repeat(*repeats) (or one tuple, or repeats=); torch.tile(input, dims) and Tensor.tile(*dims).
  in.tensor_methods["repeat"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.kw.size() == 1 && a.kw[0].first == "repeats" && a.pos.empty()) {
      return t_repeat(in, self, to_int_list(a.kw[0].second, "Tensor.repeat", loc), false, loc);
    }
    return t_repeat(in, self, varargs_ints(a, "Tensor.repeat", loc), false, loc);
  };
  def_fn(in, "torch.tile", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.tile", {"input", "dims"}, loc);
    return t_repeat(in, b[0], to_int_list(b[1], "torch.tile dims", loc), true, loc);
  });
  in.tensor_methods["tile"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    return t_repeat(in, self, varargs_ints(a, "Tensor.tile", loc), true, loc);
  };
  def_fn(in, "torch.nn.functional.one_hot", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "F.one_hot", {"tensor", "num_classes="}, loc);
    return t_one_hot(in, b[0], b.has(1) ? to_int(b[1], "F.one_hot num_classes", loc) : -1, loc);
  });
  // Indexed reads (tensor_ops.cpp: one gather op). Options that shape only the gradient change no value.
  def_both(in, "gather", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.gather", {"input", "dim", "index", "sparse_grad="}, loc);
    if (opt_bool(b, 3, false, "torch.gather sparse_grad", loc)) {
      fail(loc, "torch.gather(sparse_grad=True): sparse gradients are not supported");
    }
    return t_gather(in, b[0], to_int(b[1], "torch.gather dim", loc), b[2], "torch.gather", loc);
  });
  def_both(in, "index_select", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.index_select", {"input", "dim", "index"}, loc);
    TensorObj* index = need_tensor(b[2], "torch.index_select index", loc);
    if (index->rank() > 1) {
      fail(loc, "torch.index_select(): Index is supposed to be a vector, got " + shape_str(index->shape));
    }
    // (a 0-d index selects one slice and keeps the dim, as a 1-element vector does)
    Value vec = index->rank() == 0 ? t_reshape(in, b[2], {1}, loc) : b[2];
    return t_take(in, b[0], to_int(b[1], "torch.index_select dim", loc), vec, false, "torch.index_select", loc);
  });
  def_both(in, "take_along_dim", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.take_along_dim", {"input", "indices", "dim="}, loc);
    std::optional<int64_t> dim;
    if (b.has(2)) dim = to_int(b[2], "torch.take_along_dim dim", loc);
    return t_take_along_dim(in, b[0], b[1], dim, loc);
  });
  def_fn(in, "torch.nn.functional.embedding", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "F.embedding",
                   {"input", "weight", "padding_idx=", "max_norm=", "norm_type=", "scale_grad_by_freq=", "sparse="},
                   loc);
    check_embedding_options(b.has(3), opt_bool(b, 6, false, "F.embedding sparse", loc), "F.embedding", loc);
    return t_embedding(in, b[0], b[1], "F.embedding", loc);
  });
  def_both(in, "count_nonzero", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "count_nonzero", {"input", "dim="}, loc);
    return t_count_nonzero(in, b[0], dims_arg(b[1], "count_nonzero dim", loc), loc);
  });
  for (const char* name : {"outer", "ger"}) {
    std::string n = name;
    def_both(in, name, [n](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, n, {"input", "vec2"}, loc);
      return t_outer(in, b[0], b[1], "torch." + n, loc);
    });
  }
  def_both(in, "dot", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "dot", {"input", "tensor"}, loc);
    return t_dot(in, b[0], b[1], "torch.dot", loc);
  });
  def_both(in, "inner", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "inner", {"input", "other"}, loc);
    return t_inner(in, b[0], b[1], loc);
  });

  // GEMMs
  def_fn(in, "torch.matmul", matmul_fn);
  def_method(in, "matmul", matmul_fn);
  def_both(in, "mm", mm_fn);
  def_both(in, "bmm", bmm_fn);
  def_both(in, "mv", mv_fn);
  def_both(in, "addmm", addmm_fn);
  def_fn(in, "torch.einsum", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    // torch.einsum(equation, *operands) or torch.einsum(equation, [operands])
    if (!a.kw.empty()) fail(loc, "torch.einsum takes no keyword arguments here");
    if (a.pos.empty() || !a.pos[0].is(Kind::Str)) fail(loc, "torch.einsum: the first argument must be the equation");
    std::vector<Value> ops(a.pos.begin() + 1, a.pos.end());
    if (ops.size() == 1 && ops[0].is_seq()) ops = items_of(ops[0]);
    return t_einsum(in, str_of(a.pos[0]), ops, loc);
  });
  def_fn(in, "torch.nn.functional.linear", linear_fn);

  // torch.nn.functional
  def_fn(in, "torch.nn.functional.gelu", gelu_fn);
  def_fn(in, "torch.nn.functional.silu", silu_fn);
  def_fn(in, "torch.nn.functional.layer_norm", layer_norm_fn);
  def_fn(in, "torch.nn.functional.batch_norm", batch_norm_fn);
  def_fn(in, "torch.nn.functional.instance_norm", instance_norm_fn);
  def_fn(in, "torch.nn.functional.group_norm", group_norm_fn);
  def_fn(in, "torch.nn.functional.rms_norm", rms_norm_fn);
  def_fn(in, "torch.nn.functional.normalize", normalize_fn);
  def_both(in, "norm", norm_fn);
  def_fn(in, "torch.linalg.norm", linalg_norm_fn);
  def_fn(in, "torch.linalg.vector_norm", vector_norm_fn);
  for (int nd = 1; nd <= 3; ++nd) {
    for (bool transposed : {false, true}) {
      std::string f = std::string(transposed ? "conv_transpose" : "conv") + std::to_string(nd) + "d";
      def_fn(in, "torch.nn.functional." + f, conv_fn(nd, transposed, "F." + f));
      def_fn(in, "torch." + f, conv_fn(nd, transposed, "torch." + f));
    }
  }
  for (const ActivationSpec& spec : activation_specs()) {
    def_fn(in, std::string("torch.nn.functional.") + spec.function,
           activation_fn(spec, std::string("F.") + spec.function));
  }
  // torch.selu / torch.celu / torch.threshold exist too (the other activations are only in torch.nn.functional).
  for (const ActivationSpec& spec : activation_specs()) {
    std::string f = spec.function;
    if (f == "selu" || f == "celu" || f == "threshold") def_fn(in, "torch." + f, activation_fn(spec, "torch." + f));
  }
  def_fn(in, "torch.nn.functional.dropout", dropout_fn);
  register_pooling(in);
  def_fn(in, "torch.nn.functional.scaled_dot_product_attention", sdpa_fn);

  // creation
  def_fn(in, "torch.zeros", filled(0.0, "torch.zeros"));
  def_fn(in, "torch.ones", filled(1.0, "torch.ones"));
  def_fn(in, "torch.empty", filled(0.0, "torch.empty"));
  def_fn(in, "torch.full", full_fn);
  def_fn(in, "torch.zeros_like", like(0.0, "torch.zeros_like"));
  def_fn(in, "torch.ones_like", like(1.0, "torch.ones_like"));
  def_fn(in, "torch.empty_like", like(0.0, "torch.empty_like"));
  def_fn(in, "torch.full_like", full_like_fn);
  for (const char* name : {"torch.randn", "torch.rand"}) def_fn(in, name, random(name));
  for (const char* name : {"torch.randn_like", "torch.rand_like"}) def_fn(in, name, random_like(name));
  def_fn(in, "torch.randint", randint_fn);
  def_fn(in, "torch.randint_like", randint_like_fn);
  def_fn(in, "torch.normal", normal_fn);
  def_fn(in, "torch.randperm", randperm_fn);
  def_fn(in, "torch.arange", arange_fn);
  def_fn(in, "torch.linspace", linspace_fn);
  def_fn(in, "torch.eye", eye_fn);
  def_fn(in, "torch.tensor", tensor_fn);
  def_fn(in, "torch.as_tensor", tensor_fn);
  def_both(in, "diag", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "torch.diag", {"input", "diagonal="}, loc);
    return t_diag(in, b[0], b.has(1) ? to_int(b[1], "torch.diag diagonal", loc) : 0, loc);
  });
  def_both(in, "tril", triangle("torch.tril"));
  def_both(in, "triu", triangle("torch.triu"));
  def_fn(in, "torch.cat", concat(false, "torch.cat"));
  def_fn(in, "torch.concat", concat(false, "torch.concat"));
  def_fn(in, "torch.concatenate", concat(false, "torch.concatenate"));
  def_fn(in, "torch.stack", concat(true, "torch.stack"));
  // random draws in place of a tensor's values, written as Tensor methods (x.normal_() is generic in-place)
  in.tensor_methods["new_zeros"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "Tensor.new_zeros", {"*size", "size=", FACTORY_KWARGS}, loc);
    return created(in, factory_size(b, 0, 1, "Tensor.new_zeros", loc),
                   opt_dtype(b, 2, tensor_of(self)->dtype, "new_zeros", loc), 0, loc);
  };
  in.tensor_methods["new_ones"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "Tensor.new_ones", {"*size", "size=", FACTORY_KWARGS}, loc);
    return created(in, factory_size(b, 0, 1, "Tensor.new_ones", loc),
                   opt_dtype(b, 2, tensor_of(self)->dtype, "new_ones", loc), 1, loc);
  };
}

}  // namespace tz::tracer
