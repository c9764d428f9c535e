// torch.nn: the state of nn.Module instances (parameters, buffers, submodules, as nn.Module.__setattr__
// files them, recorded in the init replay), nn.Module's own methods, the builtin modules (construction with
// their init recipes, and forward), nn.Parameter and nn.init. nn.Linear is replayed as its parameters plus
// the nn.init calls of its reset_parameters(), in PyTorch's order, so that ModelNew draws the same weights.
#include <algorithm>
#include <cmath>

#include "trace/interp.h"
#include "trace/pooling.h"
#include "trace/shape_functions.h"
#include "trace/losses.h"
#include "trace/tensor_ops.h"

namespace tz::tracer {

namespace {

Value plain(InstanceObj* m, const std::string& name) {
  AttrEntry* e = m->find(name);
  return e ? e->value : Value::none();
}

void set_plain(InstanceObj* m, const std::string& name, const Value& v) {
  if (AttrEntry* e = m->find(name))
    e->value = v;
  else
    m->attrs.push_back({name, Slot::Plain, true, v});
}

InstanceObj* new_module(Interp& in, ClassObj* cls) {
  auto* inst = in.heap.make<InstanceObj>();
  inst->cls = cls;
  in.register_module(inst);
  return inst;
}

Value as_value(InstanceObj* m) { return Value::of(Kind::Instance, m); }

// A parameter that ModelNew's replay creates as `nn.Parameter(torch.<fill>(sizes[, dtype=...]))` (fill: empty,
// ones, zeros); the module's init lines then fill an empty one.
Value new_parameter(Interp& in, const Shape& shape, DType dt, const char* fill = "empty") {
  std::string sizes;
  for (int64_t d : shape) sizes += (sizes.empty() ? "" : ", ") + std::to_string(d);
  std::string dtype_kw = dt == DType::Float32 ? "" : std::string(", dtype=") + torch_dtype_name(dt);
  TensorObj* t = in.new_tensor(shape, dt, Phase::Init);
  t->is_param = true;
  t->expr = std::string("nn.Parameter(torch.") + fill + "(" + sizes + dtype_kw + "))";
  t->prec = kPrecPostfix;
  return in.wrap(t);
}

InstanceObj* need_module(const Value& v, const std::string& what, SourceLoc loc) {
  if (!v.is(Kind::Instance) || !v.as<InstanceObj>()->is_module()) {
    fail(loc, what + ": " + type_name(v) + " is not an nn.Module");
  }
  return v.as<InstanceObj>();
}

std::vector<InstanceObj*> child_modules(InstanceObj* m) {
  std::vector<InstanceObj*> out;
  for (const AttrEntry& e : m->attrs) {
    if (e.slot == Slot::Module && e.value.is(Kind::Instance)) out.push_back(e.value.as<InstanceObj>());
  }
  return out;
}

// named_modules(): the module first, then its children depth-first; each module once.
void preorder(InstanceObj* m, const std::string& prefix, std::vector<std::pair<std::string, InstanceObj*>>& out) {
  for (const auto& [p, seen] : out) {
    if (seen == m) return;
  }
  out.emplace_back(prefix, m);
  for (const AttrEntry& e : m->attrs) {
    if (e.slot == Slot::Module && e.value.is(Kind::Instance)) {
      preorder(e.value.as<InstanceObj>(), prefix.empty() ? e.name : prefix + "." + e.name, out);
    }
  }
}

// named_parameters() / named_buffers(): in module order, each tensor once.
std::vector<std::pair<std::string, Value>> named_tensors(InstanceObj* m, Slot slot, bool recurse) {
  std::vector<std::pair<std::string, InstanceObj*>> mods;
  if (recurse)
    preorder(m, "", mods);
  else
    mods.emplace_back("", m);
  std::vector<std::pair<std::string, Value>> out;
  for (const auto& [prefix, mod] : mods) {
    for (const AttrEntry& e : mod->attrs) {
      if (e.slot != slot || !e.value.is(Kind::Tensor)) continue;
      bool dup = false;
      for (const auto& [n, v] : out) dup = dup || v.obj == e.value.obj;
      if (!dup) out.emplace_back(prefix.empty() ? e.name : prefix + "." + e.name, e.value);
    }
  }
  return out;
}

Value module_to(Interp& in, InstanceObj* m, std::optional<DType> to, SourceLoc loc) {
  if (!to) return as_value(m);
  if (in.phase == Phase::Forward) fail(loc, "changing a module's dtype in forward() is not supported");
  // Module.to(dtype) casts the floating-point parameters and buffers of the whole subtree.
  bool any = false;
  for (Slot slot : {Slot::Param, Slot::Buffer}) {
    for (auto& [n, v] : named_tensors(m, slot, true)) {
      TensorObj* t = tensor_of(v);
      if (!is_floating(t->dtype)) continue;
      t->dtype = *to;
      any = true;
    }
  }
  if (any && in.phase == Phase::Init) {
    in.replay.text(InitRecorder::ref(m->module_id) + ".to(" + torch_dtype_name(*to) + ")");
  }
  return as_value(m);
}

void train(InstanceObj* m, bool mode) {
  std::vector<std::pair<std::string, InstanceObj*>> mods;
  preorder(m, "", mods);
  for (auto& [p, mod] : mods) set_plain(mod, "training", Value::boolean(mode));
}

Value apply(Interp& in, InstanceObj* m, const Value& fn, SourceLoc loc) {
  // Module.apply: children first, then the module itself.
  for (InstanceObj* c : child_modules(m)) apply(in, c, fn, loc);
  CallArgs a;
  a.pos.push_back(as_value(m));
  in.call(fn, a, loc);
  return as_value(m);
}

void register_module_methods(Interp& in) {
  auto& mm = in.module_methods;
  auto self_of = [](const Value& self) { return self.as<InstanceObj>(); };
  mm["__init__"] = [](Interp&, const Value&, CallArgs&, SourceLoc) { return Value::none(); };
  mm["register_buffer"] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "register_buffer", {"name", "tensor", "persistent="}, loc);
    in.register_buffer(self_of(self), to_str(b[0], "register_buffer", loc), b[1],
                       b.given[2] ? to_bool(b[2], "register_buffer", loc) : true, true, loc);
    return Value::none();
  };
  mm["register_parameter"] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "register_parameter", {"name", "param"}, loc);
    in.register_parameter(self_of(self), to_str(b[0], "register_parameter", loc), b[1], loc);
    return Value::none();
  };
  for (const char* name : {"add_module", "register_module"}) {
    mm[name] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, "add_module", {"name", "module"}, loc);
      in.add_module(self_of(self), to_str(b[0], "add_module", loc), b[1], loc);
      return Value::none();
    };
  }
  const std::tuple<const char*, Slot, bool> walks[] = {{"parameters", Slot::Param, false},
                                                       {"named_parameters", Slot::Param, true},
                                                       {"buffers", Slot::Buffer, false},
                                                       {"named_buffers", Slot::Buffer, true}};
  for (const auto& [name, slot, named] : walks) {
    Slot s = slot;
    bool with_names = named;
    mm[name] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
      Bound b = bind(in, a, "parameters", {"prefix=", "recurse=", "remove_duplicate="}, loc);
      std::string prefix = b.has(0) ? to_str(b[0], "prefix", loc) : "";
      std::vector<Value> out;
      for (auto& [n, v] : named_tensors(self_of(self), s, b.given[1] ? to_bool(b[1], "recurse", loc) : true)) {
        if (with_names)
          out.push_back(in.tuple({in.str(prefix.empty() ? n : prefix + "." + n), v}));
        else
          out.push_back(v);
      }
      return in.list(std::move(out));
    };
  }
  mm["children"] = [=](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    std::vector<Value> out;
    for (InstanceObj* c : child_modules(self_of(self))) out.push_back(as_value(c));
    return in.list(std::move(out));
  };
  mm["named_children"] = [=](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    std::vector<Value> out;
    for (const AttrEntry& e : self_of(self)->attrs) {
      if (e.slot == Slot::Module && !e.value.is_none()) out.push_back(in.tuple({in.str(e.name), e.value}));
    }
    return in.list(std::move(out));
  };
  for (const char* name : {"modules", "named_modules"}) {
    bool named = std::string(name) == "named_modules";
    mm[name] = [=](Interp& in, const Value& self, CallArgs&, SourceLoc) {
      std::vector<std::pair<std::string, InstanceObj*>> mods;
      preorder(self_of(self), "", mods);
      std::vector<Value> out;
      for (auto& [p, m] : mods) out.push_back(named ? in.tuple({in.str(p), as_value(m)}) : as_value(m));
      return in.list(std::move(out));
    };
  }
  mm["apply"] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "apply", {"fn"}, loc);
    return apply(in, self_of(self), b[0], loc);
  };
  // Switching modes in __init__ is replayed, so that ModelNew's modules carry the flags the kernels assume.
  auto replay_mode = [](Interp& in, InstanceObj* m, bool mode) {
    train(m, mode);
    if (in.phase == Phase::Init && m->replayed) {
      in.replay.text(InitRecorder::ref(m->module_id) + (mode ? ".train()" : ".eval()"));
    }
  };
  mm["train"] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "train", {"mode="}, loc);
    replay_mode(in, self_of(self), b.given[0] ? to_bool(b[0], "train", loc) : true);
    return self;
  };
  mm["eval"] = [=](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    replay_mode(in, self_of(self), false);
    return self;
  };
  mm["to"] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    std::optional<DType> to;
    for (const Value& v : a.pos) {
      if (v.is(Kind::DType)) to = to_dtype(v, "Module.to", loc);
    }
    for (const auto& [k, v] : a.kw) {
      if (k == "dtype") to = to_dtype(v, "Module.to", loc);
    }
    return module_to(in, self_of(self), to, loc);
  };
  const std::pair<const char*, DType> casts[] = {
      {"float", DType::Float32}, {"half", DType::Float16}, {"bfloat16", DType::BFloat16}, {"double", DType::Float64}};
  for (const auto& [name, t] : casts) {
    DType to = t;
    mm[name] = [=](Interp& in, const Value& self, CallArgs&, SourceLoc loc) {
      if (to == DType::Float64) fail(loc, "float64 tensors are not supported");
      return module_to(in, self_of(self), to, loc);
    };
  }
  for (const char* name : {"cuda", "cpu", "requires_grad_", "zero_grad"}) {
    mm[name] = [](Interp&, const Value& self, CallArgs&, SourceLoc) { return self; };
  }
  mm["forward"] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    return call_builtin_module(in, self_of(self), a, loc);
  };
  // containers
  mm["append"] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "append", {"module"}, loc);
    InstanceObj* m = self_of(self);
    need_module(b[0], "append", loc);
    in.add_module(m, std::to_string(in.iterate(self, loc).size()), b[0], loc);
    return self;
  };
  mm["extend"] = [=](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "extend", {"modules"}, loc);
    for (const Value& v : in.iterate(b[0], loc)) {
      need_module(v, "extend", loc);
      in.add_module(self_of(self), std::to_string(in.iterate(self, loc).size()), v, loc);
    }
    return self;
  };
  const std::pair<const char*, int> views[] = {{"keys", 0}, {"values", 1}, {"items", 2}};
  for (const auto& [name, which] : views) {
    int w = which;
    mm[name] = [=](Interp& in, const Value& self, CallArgs&, SourceLoc) {
      std::vector<Value> out;
      for (const AttrEntry& e : self_of(self)->attrs) {
        if (e.slot != Slot::Module) continue;
        out.push_back(w == 0 ? in.str(e.name) : w == 1 ? e.value : in.tuple({in.str(e.name), e.value}));
      }
      return in.list(std::move(out));
    };
  }
}

InstanceObj* make_linear(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "nn.Linear", {"in_features", "out_features", "bias=", "device=", "dtype="}, loc);
  int64_t fin = to_int(b[0], "nn.Linear in_features", loc);
  int64_t fout = to_int(b[1], "nn.Linear out_features", loc);
  if (fin < 0 || fout < 0) fail(loc, "nn.Linear: negative feature count");
  bool bias = b.given[2] ? to_bool(b[2], "nn.Linear bias", loc) : true;
  DType dt = b.has(4) ? to_dtype(b[4], "nn.Linear dtype", loc) : DType::Float32;
  if (in.phase != Phase::Init) fail(loc, "nn.Linear can only be created in __init__ (its weights are drawn at random)");
  InstanceObj* m = new_module(in, cls);
  set_plain(m, "in_features", Value::integer(fin));
  set_plain(m, "out_features", Value::integer(fout));
  std::string ref = InitRecorder::ref(m->module_id);
  // nn.Linear.__init__ allocates both parameters uninitialised, then reset_parameters() draws
  // kaiming_uniform_(weight, a=sqrt(5)) and uniform_(bias, -1/sqrt(fan_in), 1/sqrt(fan_in)), in that order.
  in.register_parameter(m, "weight", new_parameter(in, {fout, fin}, dt), loc);
  in.register_parameter(m, "bias", bias ? new_parameter(in, {fout}, dt) : Value::none(), loc);
  in.replay.text("nn.init.kaiming_uniform_(" + ref + ".weight, a=math.sqrt(5))");
  if (bias) {
    in.replay.text(fin > 0 ? "bound = 1 / math.sqrt(" + std::to_string(fin) + ")" : "bound = 0");
    in.replay.text("nn.init.uniform_(" + ref + ".bias, -bound, bound)");
  }
  return m;
}

// nn.Conv{1,2,3}d and nn.ConvTranspose{1,2,3}d: the options become attributes of PyTorch's names (tuples of
// nd ints; padding may stay 'same' / 'valid'), read again in forward. The parameters are replayed like
// _ConvNd: weight [C_out, C_in/groups, *k] ([C_in, C_out/groups, *k] when transposed) and bias [C_out]
// created uninitialised, then kaiming_uniform_(weight, a=sqrt(5)) and uniform_(bias, +-1/sqrt(fan_in)), where
// fan_in = weight.size(1) * prod(k).
InstanceObj* make_conv(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  std::string name = "nn." + cls->name;
  bool transposed = cls->name.rfind("ConvTranspose", 0) == 0;
  int nd = cls->name[cls->name.size() - 2] - '0';
  Bound b = transposed ? bind(in, a, name,
                              {"in_channels", "out_channels", "kernel_size", "stride=", "padding=", "output_padding=",
                               "groups=", "bias=", "dilation=", "padding_mode=", "device=", "dtype="},
                              loc)
                       : bind(in, a, name,
                              {"in_channels", "out_channels", "kernel_size", "stride=", "padding=", "dilation=",
                               "groups=", "bias=", "padding_mode=", "device=", "dtype="},
                              loc);
  // Positions of the options that the two signatures order differently.
  size_t i_groups = 6, i_bias = 7, i_dilation = transposed ? 8 : 5, i_mode = transposed ? 9 : 8;
  size_t i_dtype = transposed ? 11 : 10;
  int64_t c_in = to_int(b[0], name + " in_channels", loc);
  int64_t c_out = to_int(b[1], name + " out_channels", loc);
  int64_t groups = b.has(i_groups) ? to_int(b[i_groups], name + " groups", loc) : 1;
  bool bias = b.given[i_bias] ? to_bool(b[i_bias], name + " bias", loc) : true;
  std::string mode = b.has(i_mode) ? to_str(b[i_mode], name + " padding_mode", loc) : "zeros";
  DType dt = b.has(i_dtype) ? to_dtype(b[i_dtype], name + " dtype", loc) : DType::Float32;
  if (in.phase != Phase::Init) fail(loc, name + " can only be created in __init__ (its weights are drawn at random)");
  if (c_in <= 0 || c_out <= 0) fail(loc, name + ": in_channels and out_channels must be positive");
  if (groups <= 0) fail(loc, name + ": groups must be a positive integer");
  if (c_in % groups != 0) fail(loc, name + ": in_channels must be divisible by groups");
  if (c_out % groups != 0) fail(loc, name + ": out_channels must be divisible by groups");
  if (mode != "zeros") {
    if (mode == "reflect" || mode == "replicate" || mode == "circular") {
      fail(loc, name + ": padding_mode='" + mode + "' is not supported (only 'zeros')");
    }
    fail(loc, name + ": padding_mode must be 'zeros', 'reflect', 'replicate' or 'circular', got '" + mode + "'");
  }
  auto tuple_of = [&](const Value& v, int64_t dflt, const std::string& what) {
    std::vector<int64_t> xs;
    if (v.is_none()) xs.assign(nd, dflt);
    else xs = to_int_list(v, name + " " + what, loc);
    if (v.is_int_like()) xs.assign(nd, xs[0]);
    if (static_cast<int>(xs.size()) != nd) {
      fail(loc, name + " " + what + ": expected an int or " + std::to_string(nd) + " ints, got " +
                    std::to_string(xs.size()));
    }
    std::vector<Value> items;
    for (int64_t x : xs) items.push_back(Value::integer(x));
    return std::make_pair(xs, in.tuple(items));
  };
  auto [kernel, kernel_v] = tuple_of(b[2], 1, "kernel_size");
  for (int64_t k : kernel) {
    if (k <= 0) fail(loc, name + ": kernel_size must be positive");
  }
  InstanceObj* m = new_module(in, cls);
  set_plain(m, "in_channels", Value::integer(c_in));
  set_plain(m, "out_channels", Value::integer(c_out));
  set_plain(m, "kernel_size", kernel_v);
  set_plain(m, "stride", tuple_of(b.has(3) ? b[3] : Value::none(), 1, "stride").second);
  Value padding = b.has(4) ? b[4] : Value::none();
  if (padding.is(Kind::Str)) {
    const std::string& p = str_of(padding);
    if (transposed) fail(loc, name + ": padding='" + p + "' is not supported by transposed convolutions");
    if (p != "same" && p != "valid") fail(loc, name + ": padding must be 'same', 'valid', an int or a tuple of ints");
    for (const Value& s : items_of(plain(m, "stride"))) {
      if (p == "same" && s.as_int() != 1) fail(loc, name + ": padding='same' is not supported for strided convolutions");
    }
    set_plain(m, "padding", padding);
  } else {
    set_plain(m, "padding", tuple_of(padding, 0, "padding").second);
  }
  set_plain(m, "dilation", tuple_of(b.has(i_dilation) ? b[i_dilation] : Value::none(), 1, "dilation").second);
  set_plain(m, "output_padding", tuple_of(transposed && b.has(5) ? b[5] : Value::none(), 0, "output_padding").second);
  set_plain(m, "groups", Value::integer(groups));
  set_plain(m, "padding_mode", in.str(mode));
  Shape wshape = transposed ? Shape{c_in, c_out / groups} : Shape{c_out, c_in / groups};
  for (int64_t k : kernel) wshape.push_back(k);
  int64_t fan_in = wshape[1];
  for (int64_t k : kernel) fan_in *= k;
  std::string ref = InitRecorder::ref(m->module_id);
  in.register_parameter(m, "weight", new_parameter(in, wshape, dt), loc);
  in.register_parameter(m, "bias", bias ? new_parameter(in, {c_out}, dt) : Value::none(), loc);
  in.replay.text("nn.init.kaiming_uniform_(" + ref + ".weight, a=math.sqrt(5))");
  if (bias && fan_in > 0) {
    in.replay.text("bound = 1 / math.sqrt(" + std::to_string(fan_in) + ")");
    in.replay.text("nn.init.uniform_(" + ref + ".bias, -bound, bound)");
  }
  return m;
}

// nn.LayerNorm: weight ones and bias zeros (reset_parameters draws nothing), kept as parameters of the same
// names so that state dicts load; normalized_shape and eps stay attributes for forward.
InstanceObj* make_layer_norm(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "nn.LayerNorm",
                 {"normalized_shape", "eps=", "elementwise_affine=", "bias=", "device=", "dtype="}, loc);
  std::vector<int64_t> shape = to_int_list(b[0], "nn.LayerNorm normalized_shape", loc);
  double eps = b.has(1) ? to_float(b[1], "nn.LayerNorm eps", loc) : 1e-5;
  bool affine = b.given[2] ? to_bool(b[2], "nn.LayerNorm elementwise_affine", loc) : true;
  bool bias = b.given[3] ? to_bool(b[3], "nn.LayerNorm bias", loc) : true;
  DType dt = b.has(5) ? to_dtype(b[5], "nn.LayerNorm dtype", loc) : DType::Float32;
  if (in.phase != Phase::Init) fail(loc, "nn.LayerNorm can only be created in __init__");
  InstanceObj* m = new_module(in, cls);
  std::vector<Value> dims;
  for (int64_t d : shape) dims.push_back(Value::integer(d));
  set_plain(m, "normalized_shape", in.tuple(dims));
  set_plain(m, "eps", Value::floating(eps));
  set_plain(m, "elementwise_affine", Value::boolean(affine));
  in.register_parameter(m, "weight", affine ? new_parameter(in, Shape(shape), dt, "ones") : Value::none(), loc);
  in.register_parameter(m, "bias", affine && bias ? new_parameter(in, Shape(shape), dt, "zeros") : Value::none(), loc);
  return m;
}

// nn.Embedding: weight [num_embeddings, embedding_dim] drawn by reset_parameters() as init.normal_(weight), then
// the padding_idx row zeroed (_fill_padding_idx_with_zero); padding_idx, negative counted from the end, stays an
// attribute (it shapes only the gradient in forward).
InstanceObj* make_embedding(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "nn.Embedding",
                 {"num_embeddings", "embedding_dim", "padding_idx=", "max_norm=", "norm_type=", "scale_grad_by_freq=",
                  "sparse=", "_weight=", "_freeze=", "device=", "dtype="},
                 loc);
  int64_t n = to_int(b[0], "nn.Embedding num_embeddings", loc);
  int64_t d = to_int(b[1], "nn.Embedding embedding_dim", loc);
  if (n <= 0 || d <= 0) fail(loc, "nn.Embedding: num_embeddings and embedding_dim must be positive");
  check_embedding_options(b.has(3), b.given[6] && to_bool(b[6], "nn.Embedding sparse", loc), "nn.Embedding", loc);
  if (b.has(7)) fail(loc, "nn.Embedding(_weight=...): a given weight tensor is not supported");
  DType dt = b.has(10) ? to_dtype(b[10], "nn.Embedding dtype", loc) : DType::Float32;
  if (in.phase != Phase::Init) fail(loc, "nn.Embedding can only be created in __init__");
  Value padding = Value::none();
  if (b.has(2)) {
    int64_t p = to_int(b[2], "nn.Embedding padding_idx", loc);
    if (p >= n || p < -n) fail(loc, "nn.Embedding: Padding_idx must be within num_embeddings");
    padding = Value::integer(p < 0 ? p + n : p);
  }
  InstanceObj* m = new_module(in, cls);
  set_plain(m, "num_embeddings", Value::integer(n));
  set_plain(m, "embedding_dim", Value::integer(d));
  set_plain(m, "padding_idx", padding);
  std::string ref = InitRecorder::ref(m->module_id);
  in.register_parameter(m, "weight", new_parameter(in, {n, d}, dt), loc);
  in.replay.text("nn.init.normal_(" + ref + ".weight)");
  if (!padding.is_none()) {
    in.replay.text("nn.init.zeros_(" + ref + ".weight[" + std::to_string(padding.as_int()) + "])");
  }
  return m;
}

// The input rank a BatchNorm*d / InstanceNorm*d module expects, from its class name ("BatchNorm2d" -> 4).
int norm_rank(const std::string& cls) { return cls[cls.size() - 2] - '0' + 2; }

// nn.BatchNorm*d and nn.InstanceNorm*d (_NormBase): weight ones and bias zeros when affine, then the buffers
// running_mean zeros, running_var ones and num_batches_tracked 0 when track_running_stats (else None); no
// random draws. The options stay attributes for forward, under PyTorch's names.
InstanceObj* make_norm_base(Interp& in, ClassObj* cls, CallArgs& a, bool instance, SourceLoc loc) {
  std::string name = "nn." + cls->name;
  Bound b = bind(in, a, name,
                 {"num_features", "eps=", "momentum=", "affine=", "track_running_stats=", "device=", "dtype="}, loc);
  int64_t c = to_int(b[0], name + " num_features", loc);
  if (c <= 0) fail(loc, name + ": num_features must be positive");
  double eps = b.has(1) ? to_float(b[1], name + " eps", loc) : 1e-5;
  Value momentum = b.given[2] ? (b[2].is_none() ? Value::none() : Value::floating(to_float(b[2], name + " momentum", loc)))
                              : Value::floating(0.1);
  bool affine = b.given[3] ? to_bool(b[3], name + " affine", loc) : !instance;
  bool track = b.given[4] ? to_bool(b[4], name + " track_running_stats", loc) : !instance;
  DType dt = b.has(6) ? to_dtype(b[6], name + " dtype", loc) : DType::Float32;
  if (instance && track) fail(loc, name + " with track_running_stats=True is not supported");
  if (in.phase != Phase::Init) fail(loc, name + " can only be created in __init__");
  InstanceObj* m = new_module(in, cls);
  set_plain(m, "num_features", Value::integer(c));
  set_plain(m, "eps", Value::floating(eps));
  set_plain(m, "momentum", momentum);
  set_plain(m, "affine", Value::boolean(affine));
  set_plain(m, "track_running_stats", Value::boolean(track));
  std::string sizes = std::to_string(c);
  std::string dtype_kw = dt == DType::Float32 ? "" : std::string(", dtype=") + torch_dtype_name(dt);
  auto tensor = [&](Shape shape, DType t, const std::string& expr, bool param) {
    TensorObj* p = in.new_tensor(std::move(shape), t, Phase::Init);
    p->is_param = param;
    p->expr = expr;
    p->prec = kPrecPostfix;
    return in.wrap(p);
  };
  in.register_parameter(m, "weight", affine ? tensor({c}, dt, "nn.Parameter(torch.ones(" + sizes + dtype_kw + "))", true) : Value::none(), loc);
  in.register_parameter(m, "bias", affine ? tensor({c}, dt, "nn.Parameter(torch.zeros(" + sizes + dtype_kw + "))", true) : Value::none(), loc);
  if (track) {
    in.register_buffer(m, "running_mean", tensor({c}, dt, "torch.zeros(" + sizes + dtype_kw + ")", false), true, true, loc);
    in.register_buffer(m, "running_var", tensor({c}, dt, "torch.ones(" + sizes + dtype_kw + ")", false), true, true, loc);
    in.register_buffer(m, "num_batches_tracked", tensor({}, DType::Int64, "torch.tensor(0, dtype=torch.long)", false),
                       true, true, loc);
  } else {
    for (const char* buf : {"running_mean", "running_var", "num_batches_tracked"}) {
      in.register_buffer(m, buf, Value::none(), true, true, loc);
    }
  }
  return m;
}

// nn.GroupNorm: weight ones and bias zeros when affine.
InstanceObj* make_group_norm(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "nn.GroupNorm", {"num_groups", "num_channels", "eps=", "affine=", "device=", "dtype="}, loc);
  int64_t groups = to_int(b[0], "nn.GroupNorm num_groups", loc);
  int64_t c = to_int(b[1], "nn.GroupNorm num_channels", loc);
  if (groups <= 0 || c <= 0 || c % groups != 0) {
    fail(loc, "nn.GroupNorm: num_channels (" + std::to_string(c) + ") must be divisible by num_groups (" +
                  std::to_string(groups) + ")");
  }
  double eps = b.has(2) ? to_float(b[2], "nn.GroupNorm eps", loc) : 1e-5;
  bool affine = b.given[3] ? to_bool(b[3], "nn.GroupNorm affine", loc) : true;
  DType dt = b.has(5) ? to_dtype(b[5], "nn.GroupNorm dtype", loc) : DType::Float32;
  if (in.phase != Phase::Init) fail(loc, "nn.GroupNorm can only be created in __init__");
  InstanceObj* m = new_module(in, cls);
  set_plain(m, "num_groups", Value::integer(groups));
  set_plain(m, "num_channels", Value::integer(c));
  set_plain(m, "eps", Value::floating(eps));
  set_plain(m, "affine", Value::boolean(affine));
  in.register_parameter(m, "weight", affine ? new_parameter(in, {c}, dt, "ones") : Value::none(), loc);
  in.register_parameter(m, "bias", affine ? new_parameter(in, {c}, dt, "zeros") : Value::none(), loc);
  return m;
}

// nn.RMSNorm: weight ones when elementwise_affine; eps None stays None (the input type's epsilon in forward).
InstanceObj* make_rms_norm(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  Bound b = bind(in, a, "nn.RMSNorm", {"normalized_shape", "eps=", "elementwise_affine=", "device=", "dtype="}, loc);
  std::vector<int64_t> shape = to_int_list(b[0], "nn.RMSNorm normalized_shape", loc);
  bool affine = b.given[2] ? to_bool(b[2], "nn.RMSNorm elementwise_affine", loc) : true;
  DType dt = b.has(4) ? to_dtype(b[4], "nn.RMSNorm dtype", loc) : DType::Float32;
  if (in.phase != Phase::Init) fail(loc, "nn.RMSNorm can only be created in __init__");
  InstanceObj* m = new_module(in, cls);
  std::vector<Value> dims;
  for (int64_t d : shape) dims.push_back(Value::integer(d));
  set_plain(m, "normalized_shape", in.tuple(dims));
  set_plain(m, "eps", b.has(1) ? Value::floating(to_float(b[1], "nn.RMSNorm eps", loc)) : Value::none());
  set_plain(m, "elementwise_affine", Value::boolean(affine));
  in.register_parameter(m, "weight", affine ? new_parameter(in, Shape(shape), dt, "ones") : Value::none(), loc);
  return m;
}

// _BatchNorm.forward: counts the batch and picks the momentum (1 / count for momentum=None), then
// F.batch_norm with batch statistics in training mode (or without running statistics), else the running ones.
Value batch_norm_forward(Interp& in, InstanceObj* m, const Value& x, SourceLoc loc) {
  std::string name = "nn." + m->cls->name;
  Value self = as_value(m);
  TensorObj* t = need_tensor(x, name, loc);
  int want = norm_rank(m->cls->name);
  bool ok = t->rank() == want || (want == 3 && t->rank() == 2);
  if (!ok) {
    fail(loc, name + " expects a " + (want == 3 ? std::string("2-D or 3-D") : std::to_string(want) + "-D") +
                  " input, got " + shape_str(t->shape));
  }
  bool training = in.truthy(plain(m, "training"), loc);
  bool track = in.truthy(plain(m, "track_running_stats"), loc);
  Value momentum = plain(m, "momentum");
  Value factor = momentum.is_none() ? Value::floating(0.0) : Value::floating(to_float(momentum, name + " momentum", loc));
  Value rm = in.get_attr(self, "running_mean", loc), rv = in.get_attr(self, "running_var", loc);
  Value count = in.get_attr(self, "num_batches_tracked", loc);
  if (training && track && !count.is_none()) {
    Value next = t_binary(in, Op::Add, count, Value::integer(1), loc);
    t_update_buffer(in, count, next, name + " num_batches_tracked", loc);
    if (momentum.is_none()) factor = t_binary(in, Op::Div, Value::floating(1.0), next, loc);
  }
  bool batch_stats = training || (rm.is_none() && rv.is_none());
  if (!rm.is_none() && tensor_of(rm)->node && tensor_of(rm)->node->op == Op::Param) {
    // With running statistics the kernels differ by mode: ModelNew.forward checks the module's flag.
    std::string path = tensor_of(rm)->node->attr.str;
    std::string prefix = path.size() > 13 ? path.substr(0, path.size() - 13) : "";  // drop ".running_mean"
    bool seen = false;
    for (const auto& [p, mode] : in.mode_checks) seen = seen || p == prefix;
    if (!seen && !prefix.empty()) in.mode_checks.emplace_back(prefix, training);
  }
  bool pass_running = !training || track;
  return t_batch_norm(in, x, pass_running ? rm : Value::none(), pass_running ? rv : Value::none(),
                      in.get_attr(self, "weight", loc), in.get_attr(self, "bias", loc), batch_stats, factor,
                      to_float(plain(m, "eps"), name + " eps", loc), loc);
}

}  // namespace

// A builtin nn module made as `torch.nn.<cls>(pos..., kw...)` inside another's constructor.
Value make_child(Interp& in, const std::string& cls, std::vector<Value> pos,
                 std::vector<std::pair<std::string, Value>> kw, SourceLoc loc) {
  CallArgs args;
  args.pos = std::move(pos);
  args.kw = std::move(kw);
  return construct_builtin_module(in, in.registry.at("torch.nn." + cls).as<ClassObj>(), args, loc);
}

// nn.MultiheadAttention with one embedding size for query, key and value (kdim = vdim = embed_dim): the parameters
// of PyTorch's __init__ in its order (in_proj_weight [3E, E], in_proj_bias [3E], out_proj: a Linear(E, E), whose
// own reset_parameters draws first), then _reset_parameters: xavier_uniform_(in_proj_weight), zero biases.
InstanceObj* make_multihead_attention(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  const std::string name = "nn.MultiheadAttention";
  Bound b = bind(in, a, name,
                 {"embed_dim", "num_heads", "dropout=", "bias=", "add_bias_kv=", "add_zero_attn=", "kdim=", "vdim=",
                  "batch_first=", "device=", "dtype="},
                 loc);
  int64_t e = to_int(b[0], name + " embed_dim", loc), heads = to_int(b[1], name + " num_heads", loc);
  if (e <= 0 || heads <= 0) fail(loc, name + ": embed_dim and num_heads must be positive");
  if (e % heads != 0) fail(loc, name + ": embed_dim must be divisible by num_heads");
  double dropout = b.has(2) ? to_float(b[2], name + " dropout", loc) : 0.0;
  bool bias = b.has(3) ? to_bool(b[3], name + " bias", loc) : true;
  if (b.has(4) && to_bool(b[4], name + " add_bias_kv", loc)) fail(loc, name + " with add_bias_kv=True is not supported");
  if (b.has(5) && to_bool(b[5], name + " add_zero_attn", loc)) {
    fail(loc, name + " with add_zero_attn=True is not supported");
  }
  for (int i : {6, 7}) {
    if (b.has(static_cast<size_t>(i)) && to_int(b[static_cast<size_t>(i)], name + " kdim/vdim", loc) != e) {
      fail(loc, name + " with kdim or vdim other than embed_dim (separate projection weights) is not supported");
    }
  }
  if (b.has(10) && to_dtype(b[10], name + " dtype", loc) != DType::Float32) {
    fail(loc, name + " with a dtype other than torch.float32 is not supported");
  }
  if (in.phase != Phase::Init) fail(loc, name + " can only be created in __init__ (its weights are drawn at random)");
  InstanceObj* m = new_module(in, cls);
  set_plain(m, "embed_dim", Value::integer(e));
  set_plain(m, "num_heads", Value::integer(heads));
  set_plain(m, "dropout", Value::floating(dropout));
  set_plain(m, "batch_first", Value::boolean(b.has(8) && to_bool(b[8], name + " batch_first", loc)));
  in.register_parameter(m, "in_proj_weight", new_parameter(in, {3 * e, e}, DType::Float32), loc);
  in.register_parameter(m, "in_proj_bias", bias ? new_parameter(in, {3 * e}, DType::Float32) : Value::none(), loc);
  in.add_module(m, "out_proj",
                make_child(in, "Linear", {Value::integer(e), Value::integer(e)}, {{"bias", Value::boolean(bias)}}, loc),
                loc);
  std::string ref = InitRecorder::ref(m->module_id);
  in.replay.text("nn.init.xavier_uniform_(" + ref + ".in_proj_weight)");
  if (bias) {
    in.replay.text("nn.init.constant_(" + ref + ".in_proj_bias, 0.0)");
    in.replay.text("nn.init.constant_(" + ref + ".out_proj.bias, 0.0)");
  }
  return m;
}

// nn.MultiheadAttention's forward (F.multi_head_attention_forward without dropout): the input projection (one
// matmul when query, key and value are one tensor), heads of E / H, attention with scale 1/sqrt(E / H) through the
// attention kernel, the output projection; with need_weights also the softmax weights, averaged over the heads
// unless average_attn_weights=False (computed from the scaled scores as eager computes them; dropped with the
// graph's dead nodes when not used). Boolean masks mark what may NOT be attended (True = masked, PyTorch's MHA
// convention); they become -inf added to the scores, as _canonical_mask makes them, merged with key_padding_mask.
Value multihead_attention_forward(Interp& in, InstanceObj* m, CallArgs& a, SourceLoc loc) {
  const std::string name = "nn.MultiheadAttention";
  Value self = as_value(m);
  Bound b = bind(in, a, name,
                 {"query", "key", "value", "key_padding_mask=", "need_weights=", "attn_mask=", "average_attn_weights=",
                  "is_causal="},
                 loc);
  if (plain(m, "dropout").as_double() > 0 && in.truthy(plain(m, "training"), loc)) {
    fail(loc, name + " with dropout > 0 in training mode is random: not supported");
  }
  const int64_t e = plain(m, "embed_dim").as_int(), heads = plain(m, "num_heads").as_int(), hd = e / heads;
  const bool batch_first = in.truthy(plain(m, "batch_first"), loc);
  bool need_weights = b.has(4) ? to_bool(b[4], name + " need_weights", loc) : true;
  bool average = b.has(6) ? to_bool(b[6], name + " average_attn_weights", loc) : true;
  if (b.has(7) && to_bool(b[7], name + " is_causal", loc)) {
    fail(loc, name + " with is_causal=True is not supported (pass the causal attn_mask)");
  }
  TensorObj* tq = need_tensor(b[0], name + " query", loc);
  TensorObj* tk = need_tensor(b[1], name + " key", loc);
  TensorObj* tv = need_tensor(b[2], name + " value", loc);
  for (TensorObj* t : {tq, tk, tv}) {
    if (t->rank() != 3) fail(loc, name + ": query, key and value must be batched 3-D tensors, got " + shape_str(t->shape));
    if (t->dtype != DType::Float32) fail(loc, name + " of " + torch_dtype_name(t->dtype) + " inputs is not supported");
    if (t->shape[2] != e) fail(loc, name + ": the inputs' last dim must be embed_dim " + std::to_string(e));
  }
  // [L, N, E] (batch_first: [N, L, E], transposed here as PyTorch's forward does)
  auto seq_major = [&](const Value& x) { return batch_first ? t_transpose(in, x, 0, 1, loc) : x; };
  Value q = seq_major(b[0]), k = seq_major(b[1]), v = seq_major(b[2]);
  const int64_t L = tensor_of(q)->shape[0], N = tensor_of(q)->shape[1], S = tensor_of(k)->shape[0];
  if (tensor_of(k)->shape != tensor_of(v)->shape || tensor_of(k)->shape[1] != N) {
    fail(loc, name + ": key and value must have one shape, with query's batch size");
  }
  Value w = in.get_attr(self, "in_proj_weight", loc), bias = in.get_attr(self, "in_proj_bias", loc);
  auto rows = [&](const Value& t, int64_t part, int64_t parts) {
    return t.is_none() ? t : t_narrow(in, t, 0, part * e, parts * e, loc);
  };
  Value pq, pk, pv;
  if (tq == tk && tk == tv) {  // self-attention: one projection, split in three
    Value p = t_linear(in, q, w, bias, loc);
    pq = t_narrow(in, p, 2, 0, e, loc), pk = t_narrow(in, p, 2, e, e, loc), pv = t_narrow(in, p, 2, 2 * e, e, loc);
  } else {
    pq = t_linear(in, q, rows(w, 0, 1), rows(bias, 0, 1), loc);
    pk = t_linear(in, k, rows(w, 1, 1), rows(bias, 1, 1), loc);
    pv = t_linear(in, v, rows(w, 2, 1), rows(bias, 2, 1), loc);
  }
  // [T, N, E] -> [N, H, T, hd]
  auto split_heads = [&](const Value& x, int64_t t) {
    return t_permute(in, t_reshape(in, x, {t, N, heads, hd}, loc), {1, 2, 0, 3}, loc);
  };
  Value qh = split_heads(pq, L), kh = split_heads(pk, S), vh = split_heads(pv, S);
  // The additive mask [N or 1, H or 1, L, S]: float masks as given, boolean ones as -inf where True.
  Value mask;
  auto additive = [&](const Value& mv, const char* what) {
    TensorObj* t = need_tensor(mv, name + " " + what, loc);
    if (t->dtype == DType::Bool) return t_where(in, mv, Value::floating(-INFINITY), Value::floating(0.0), loc);
    if (t->dtype != DType::Float32) fail(loc, name + ": " + what + " must be bool or float32");
    return mv;
  };
  if (b.has(5)) {
    TensorObj* t = need_tensor(b[5], name + " attn_mask", loc);
    Value am = additive(b[5], "attn_mask");
    if (t->shape == Shape{L, S}) {
      mask = am;
    } else if (t->shape == Shape{N * heads, L, S}) {
      mask = t_reshape(in, am, {N, heads, L, S}, loc);
    } else {
      fail(loc, name + ": attn_mask must be [L, S] " + shape_str({L, S}) + " or [N * num_heads, L, S] " +
                    shape_str({N * heads, L, S}) + ", got " + shape_str(t->shape));
    }
  }
  if (b.has(3)) {
    TensorObj* t = need_tensor(b[3], name + " key_padding_mask", loc);
    if (t->shape != Shape{N, S}) {
      fail(loc, name + ": key_padding_mask must be [N, S] " + shape_str({N, S}) + ", got " + shape_str(t->shape));
    }
    Value kpm = t_reshape(in, additive(b[3], "key_padding_mask"), {N, 1, 1, S}, loc);
    mask = mask.is_none() ? kpm : t_binary(in, Op::Add, mask, kpm, loc);
  }
  const double scale = 1.0 / std::sqrt(static_cast<double>(hd));
  Value attn = t_attention(in, qh, kh, vh, mask, false, scale, loc);  // [N, H, L, hd]
  Value merged = t_reshape(in, t_permute(in, attn, {2, 0, 1, 3}, loc), {L, N, e}, loc);
  Value out_proj = in.get_attr(self, "out_proj", loc);
  Value out = t_linear(in, merged, in.get_attr(out_proj, "weight", loc), in.get_attr(out_proj, "bias", loc), loc);
  if (batch_first) out = t_transpose(in, out, 0, 1, loc);
  if (!need_weights) return in.tuple({out, Value::none()});
  // Eager's weights: softmax((q * sqrt(1 / hd)) @ k^T + mask), [N, H, L, S]
  Value scores = t_matmul(in, t_binary(in, Op::Mul, qh, Value::floating(std::sqrt(1.0 / static_cast<double>(hd))), loc),
                          t_transpose(in, kh, 2, 3, loc), loc);
  if (!mask.is_none()) scores = t_binary(in, Op::Add, scores, mask, loc);
  Value weights = t_softmax(in, Op::Softmax, scores, 3, loc);
  if (average) weights = t_reduce(in, Op::Mean, weights, std::vector<int64_t>{1}, false, loc);
  return in.tuple({out, weights});
}

// nn.TransformerEncoderLayer: PyTorch's submodules in its __init__ order, so that their draws and the state dict
// follow it: self_attn (MultiheadAttention), linear1, dropout, linear2, norm1, norm2, dropout1, dropout2; the
// activation 'relu' or 'gelu' (a function, no module) or a module instance (a child named activation).
InstanceObj* make_transformer_encoder_layer(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  const std::string name = "nn.TransformerEncoderLayer";
  Bound b = bind(in, a, name,
                 {"d_model", "nhead", "dim_feedforward=", "dropout=", "activation=", "layer_norm_eps=", "batch_first=",
                  "norm_first=", "bias=", "device=", "dtype="},
                 loc);
  if (in.phase != Phase::Init) fail(loc, name + " can only be created in __init__ (its weights are drawn at random)");
  Value d = b[0], heads = b[1];
  Value ff = b.has(2) ? b[2] : Value::integer(2048);
  Value dropout = b.has(3) ? b[3] : Value::floating(0.1);
  Value eps = b.has(5) ? b[5] : Value::floating(1e-5);
  Value batch_first = b.has(6) ? b[6] : Value::boolean(false);
  Value bias = b.has(8) ? b[8] : Value::boolean(true);
  if (b.has(10) && to_dtype(b[10], name + " dtype", loc) != DType::Float32) {
    fail(loc, name + " with a dtype other than torch.float32 is not supported");
  }
  InstanceObj* m = new_module(in, cls);
  set_plain(m, "norm_first", Value::boolean(b.has(7) && to_bool(b[7], name + " norm_first", loc)));
  auto child = [&](const char* key, Value v) { in.add_module(m, key, v, loc); };
  child("self_attn", make_child(in, "MultiheadAttention", {d, heads},
                                {{"dropout", dropout}, {"bias", bias}, {"batch_first", batch_first}}, loc));
  child("linear1", make_child(in, "Linear", {d, ff}, {{"bias", bias}}, loc));
  child("dropout", make_child(in, "Dropout", {dropout}, {}, loc));
  child("linear2", make_child(in, "Linear", {ff, d}, {{"bias", bias}}, loc));
  child("norm1", make_child(in, "LayerNorm", {d}, {{"eps", eps}, {"bias", bias}}, loc));
  child("norm2", make_child(in, "LayerNorm", {d}, {{"eps", eps}, {"bias", bias}}, loc));
  child("dropout1", make_child(in, "Dropout", {dropout}, {}, loc));
  child("dropout2", make_child(in, "Dropout", {dropout}, {}, loc));
  Value act = b.has(4) ? b[4] : in.str("relu");
  if (act.is(Kind::Instance) && act.as<InstanceObj>()->is_module()) {
    child("activation", act);
  } else if (act.is(Kind::Str)) {
    std::string f = to_str(act, name + " activation", loc);
    if (f != "relu" && f != "gelu") fail(loc, name + ": activation should be relu/gelu, not " + f);
    set_plain(m, "activation_name", act);
  } else {
    fail(loc, name + ": activation must be 'relu', 'gelu' or an nn module instance (other callables are not supported)");
  }
  return m;
}

// Its forward (without the inference fast path, which computes the same thing): post-norm x = norm1(x + sa(x)),
// x = norm2(x + ff(x)); with norm_first x = x + sa(norm1(x)), x = x + ff(norm2(x)). sa is self_attn with
// need_weights=False; ff is linear2(dropout(activation(linear1(x)))); every dropout must be inactive.
Value transformer_encoder_layer_forward(Interp& in, InstanceObj* m, CallArgs& a, SourceLoc loc) {
  const std::string name = "nn.TransformerEncoderLayer";
  Value self = as_value(m);
  Bound b = bind(in, a, name, {"src", "src_mask=", "src_key_padding_mask=", "is_causal="}, loc);
  auto call = [&](const char* child, std::vector<Value> pos, std::vector<std::pair<std::string, Value>> kw = {}) {
    CallArgs args;
    args.pos = std::move(pos);
    args.kw = std::move(kw);
    return in.call(in.get_attr(self, child, loc), args, loc);
  };
  auto sa = [&](const Value& x) {
    std::vector<std::pair<std::string, Value>> kw = {{"need_weights", Value::boolean(false)}};
    if (b.has(1)) kw.emplace_back("attn_mask", b[1]);
    if (b.has(2)) kw.emplace_back("key_padding_mask", b[2]);
    if (b.has(3) && to_bool(b[3], name + " is_causal", loc)) {
      if (!b.has(1)) fail(loc, name + ": is_causal=True needs src_mask (the causal mask it hints at)");
    }
    Value out = call("self_attn", {x, x, x}, kw);
    return call("dropout1", {items_of(out)[0]});
  };
  auto ff = [&](const Value& x) {
    Value h = call("linear1", {x});
    Value act = plain(m, "activation_name");
    if (act.is_none()) {
      h = call("activation", {h});
    } else {
      h = str_of(act) == "relu" ? t_unary(in, Op::Relu, h, loc) : t_gelu(in, h, "none", loc);
    }
    return call("dropout2", {call("linear2", {call("dropout", {h})})});
  };
  Value x = b[0];
  if (in.truthy(plain(m, "norm_first"), loc)) {
    x = t_binary(in, Op::Add, x, sa(call("norm1", {x})), loc);
    return t_binary(in, Op::Add, x, ff(call("norm2", {x})), loc);
  }
  x = call("norm1", {t_binary(in, Op::Add, x, sa(x), loc)});
  return call("norm2", {t_binary(in, Op::Add, x, ff(x), loc)});
}

Value construct_builtin_module(Interp& in, ClassObj* cls, CallArgs& a, SourceLoc loc) {
  std::string name = "nn." + cls->name;
  switch (cls->module) {
    case ModuleKind::Linear: return as_value(make_linear(in, cls, a, loc));
    case ModuleKind::MultiheadAttention: return as_value(make_multihead_attention(in, cls, a, loc));
    case ModuleKind::TransformerEncoderLayer: return as_value(make_transformer_encoder_layer(in, cls, a, loc));
    case ModuleKind::Pad: {
      // padding: an int (every side of the nd padded dims) or 2 * nd ints, F.pad's order; ConstantPad's value
      const int nd = cls->name[cls->name.size() - 2] - '0';
      const bool constant = cls->name.rfind("ConstantPad", 0) == 0;
      Bound b = constant ? bind(in, a, name, {"padding", "value"}, loc) : bind(in, a, name, {"padding"}, loc);
      std::vector<Value> pads;
      if (b[0].is(Kind::Int)) {
        pads.assign(static_cast<size_t>(2 * nd), b[0]);
      } else {
        for (int64_t p : to_int_list(b[0], name + " padding", loc)) pads.push_back(Value::integer(p));
        if (pads.size() != static_cast<size_t>(2 * nd)) {
          fail(loc, name + ": padding must be an int or a tuple of " + std::to_string(2 * nd) + " ints");
        }
      }
      InstanceObj* m = new_module(in, cls);
      set_plain(m, "padding", in.tuple(pads));
      set_plain(m, "value", constant ? Value::floating(to_float(b[1], name + " value", loc)) : Value::floating(0.0));
      return as_value(m);
    }
    case ModuleKind::Shuffle: {
      const char* option = cls->name == "PixelShuffle" ? "upscale_factor"
                           : cls->name == "PixelUnshuffle" ? "downscale_factor" : "groups";
      Bound b = bind(in, a, name, {option}, loc);
      InstanceObj* m = new_module(in, cls);
      set_plain(m, option, Value::integer(to_int(b[0], name + " " + option, loc)));
      return as_value(m);
    }
    case ModuleKind::Unflatten: {
      Bound b = bind(in, a, name, {"dim", "unflattened_size"}, loc);
      InstanceObj* m = new_module(in, cls);
      set_plain(m, "dim", Value::integer(to_int(b[0], name + " dim", loc)));
      std::vector<Value> sizes;
      for (int64_t v : to_int_list(b[1], name + " unflattened_size", loc)) sizes.push_back(Value::integer(v));
      set_plain(m, "unflattened_size", in.tuple(sizes));
      return as_value(m);
    }
    case ModuleKind::PReLU: {
      // nn.PReLU: weight = Parameter(torch.empty(num_parameters)), then init.constant_(weight, init): no draws.
      Bound b = bind(in, a, name, {"num_parameters=", "init=", "device=", "dtype="}, loc);
      int64_t n = b.has(0) ? to_int(b[0], name + " num_parameters", loc) : 1;
      double init = b.has(1) ? to_float(b[1], name + " init", loc) : 0.25;
      if (n <= 0) fail(loc, name + ": num_parameters must be positive");
      if (b.has(3) && to_dtype(b[3], name + " dtype", loc) != DType::Float32) {
        fail(loc, name + " with a dtype other than torch.float32 is not supported");
      }
      if (in.phase != Phase::Init) fail(loc, name + " can only be created in __init__");
      InstanceObj* m = new_module(in, cls);
      in.register_parameter(m, "weight", new_parameter(in, {n}, DType::Float32), loc);
      in.replay.text("nn.init.constant_(" + InitRecorder::ref(m->module_id) + ".weight, " +
                     literal_repr(Value::floating(init)) + ")");
      return as_value(m);
    }
    case ModuleKind::Conv: return as_value(make_conv(in, cls, a, loc));
    case ModuleKind::LayerNorm: return as_value(make_layer_norm(in, cls, a, loc));
    case ModuleKind::BatchNorm: return as_value(make_norm_base(in, cls, a, false, loc));
    case ModuleKind::InstanceNorm: return as_value(make_norm_base(in, cls, a, true, loc));
    case ModuleKind::GroupNorm: return as_value(make_group_norm(in, cls, a, loc));
    case ModuleKind::RMSNorm: return as_value(make_rms_norm(in, cls, a, loc));
    case ModuleKind::Embedding: return as_value(make_embedding(in, cls, a, loc));
    case ModuleKind::ReLU:
    case ModuleKind::SiLU: bind(in, a, name, {"inplace="}, loc); return as_value(new_module(in, cls));
    case ModuleKind::Sigmoid:
    case ModuleKind::Tanh:
    case ModuleKind::Module: bind(in, a, name, {}, loc); return as_value(new_module(in, cls));
    case ModuleKind::Identity: return as_value(new_module(in, cls));  // nn.Identity ignores its arguments
    case ModuleKind::GELU: {
      Bound b = bind(in, a, name, {"approximate="}, loc);
      std::string approx = b.given[0] ? to_str(b[0], "nn.GELU approximate", loc) : "none";
      if (approx != "none" && approx != "tanh") fail(loc, "nn.GELU: approximate must be 'none' or 'tanh'");
      InstanceObj* m = new_module(in, cls);
      set_plain(m, "approximate", in.str(approx));
      return as_value(m);
    }
    case ModuleKind::Activation: {
      // The options become attributes of PyTorch's names (self.act.negative_slope), read again in forward.
      const ActivationSpec* spec = find_activation_module(cls->name);
      TZ_ASSERT(spec != nullptr, "activation module without a spec: " + cls->name);
      std::vector<std::string> params;
      for (const auto& [opt, dflt] : spec->options) params.push_back(std::string(opt) + "=");
      if (spec->inplace) params.push_back("inplace=");
      Bound b = tracer::bind(in, a, name, params, loc);
      InstanceObj* m = new_module(in, cls);
      for (size_t i = 0; i < spec->options.size(); ++i) {
        const auto& [opt, dflt] = spec->options[i];
        // (an explicit None is no default here: PyTorch's forward rejects it, these options are numbers)
        set_plain(m, opt, Value::floating(b.given[i] ? to_float(b[i], name + " " + opt, loc) : dflt));
      }
      if (cls->name == "Hardtanh" && plain(m, "min_val").as_double() >= plain(m, "max_val").as_double()) {
        // PyTorch's constructor check (stricter than F.hardtanh's, which allows min_val == max_val)
        fail(loc, name + ": max_val (" + literal_repr(plain(m, "max_val")) + ") must be greater than min_val (" +
                      literal_repr(plain(m, "min_val")) + ")");
      }
      return as_value(m);
    }
    case ModuleKind::Pool: {
      // The options become attributes of PyTorch's names (self.pool.kernel_size), read again in forward.
      const PoolSpec* spec = find_pool_module(cls->name);
      TZ_ASSERT(spec != nullptr, "pooling module without a spec: " + cls->name);
      Bound b = tracer::bind(in, a, name, spec->module_params, loc);
      InstanceObj* m = new_module(in, cls);
      for (size_t i = 0; i < spec->module_params.size(); ++i) {
        std::string opt = spec->module_params[i];
        if (opt.back() == '=') opt.pop_back();
        set_plain(m, opt, b.has(i) ? b[i] : pool_default(opt));
      }
      return as_value(m);
    }
    case ModuleKind::Loss: {
      // Options become attributes of PyTorch's names (self.loss.reduction); a weight (and BCEWithLogitsLoss's
      // pos_weight) is a buffer, as in _WeightedLoss, so that it is replayed and in the state dict.
      const LossSpec* spec = find_loss_module(cls->name);
      TZ_ASSERT(spec != nullptr, "loss module without a spec: " + cls->name);
      std::vector<const LossOption*> opts;
      std::vector<std::string> params;
      for (const LossOption& o : spec->options) {
        if (!o.in_module) continue;
        opts.push_back(&o);
        params.push_back(std::string(o.name) + "=");
      }
      Bound b = tracer::bind(in, a, name, params, loc);
      InstanceObj* m = new_module(in, cls);
      for (size_t i = 0; i < opts.size(); ++i) {
        Value v = b.given[i] ? b[i] : loss_default(in, *opts[i]);
        if (std::string(opts[i]->name) == "weight" || std::string(opts[i]->name) == "pos_weight") {
          if (!v.is_none()) in.register_buffer(m, opts[i]->name, v, true, false, loc);
          continue;
        }
        set_plain(m, opts[i]->attr, v);
      }
      return as_value(m);
    }
    case ModuleKind::Softmax:  // (also nn.Softmin and nn.GLU: one `dim` option; GLU's defaults to -1)
    case ModuleKind::LogSoftmax: {
      Bound b = bind(in, a, name, {"dim="}, loc);
      InstanceObj* m = new_module(in, cls);
      Value dflt = cls->name == "GLU" ? Value::integer(-1) : Value::none();
      set_plain(m, "dim", b.has(0) ? Value::integer(to_int(b[0], name + " dim", loc)) : dflt);
      return as_value(m);
    }
    case ModuleKind::Flatten: {
      Bound b = bind(in, a, name, {"start_dim=", "end_dim="}, loc);
      InstanceObj* m = new_module(in, cls);
      set_plain(m, "start_dim", Value::integer(b.given[0] ? to_int(b[0], name + " start_dim", loc) : 1));
      set_plain(m, "end_dim", Value::integer(b.given[1] ? to_int(b[1], name + " end_dim", loc) : -1));
      return as_value(m);
    }
    case ModuleKind::Dropout: {
      Bound b = bind(in, a, name, {"p=", "inplace="}, loc);
      double p = b.has(0) ? to_float(b[0], "nn.Dropout p", loc) : 0.5;
      if (p < 0 || p > 1) fail(loc, "nn.Dropout: p must be in [0, 1]");
      InstanceObj* m = new_module(in, cls);
      set_plain(m, "p", Value::floating(p));
      return as_value(m);
    }
    case ModuleKind::Sequential: {
      InstanceObj* m = new_module(in, cls);
      if (a.pos.size() == 1 && a.pos[0].is(Kind::Dict)) {  // nn.Sequential(OrderedDict(...)): named children
        in.replay.set_holder(m->module_id, Holder::Attr);
        for (const auto& [k, v] : a.pos[0].as<DictObj>()->items) {
          need_module(v, name, loc);
          in.add_module(m, to_str(k, "nn.Sequential key", loc), v, loc);
        }
        return as_value(m);
      }
      if (!a.kw.empty()) fail(loc, "nn.Sequential takes no keyword arguments");
      for (size_t i = 0; i < a.pos.size(); ++i) {
        need_module(a.pos[i], name + " argument " + std::to_string(i), loc);
        in.add_module(m, std::to_string(i), a.pos[i], loc);
      }
      return as_value(m);
    }
    case ModuleKind::ModuleList: {
      Bound b = bind(in, a, name, {"modules="}, loc);
      InstanceObj* m = new_module(in, cls);
      if (b.has(0)) {
        size_t i = 0;
        for (const Value& v : in.iterate(b[0], loc)) {
          need_module(v, name, loc);
          in.add_module(m, std::to_string(i++), v, loc);
        }
      }
      return as_value(m);
    }
    case ModuleKind::ModuleDict: {
      Bound b = bind(in, a, name, {"modules="}, loc);
      InstanceObj* m = new_module(in, cls);
      if (b.has(0)) {
        if (!b[0].is(Kind::Dict)) fail(loc, "nn.ModuleDict expects a dict");
        for (const auto& [k, v] : b[0].as<DictObj>()->items) {
          need_module(v, name, loc);
          in.add_module(m, to_str(k, "nn.ModuleDict key", loc), v, loc);
        }
      }
      return as_value(m);
    }
    case ModuleKind::None: break;
  }
  fail(loc, name + " cannot be constructed");
}

Value call_builtin_module(Interp& in, InstanceObj* m, CallArgs& a, SourceLoc loc) {
  std::string name = "nn." + m->cls->name;
  Value self = as_value(m);
  auto input = [&] { return bind(in, a, name, {"input"}, loc)[0]; };
  switch (m->cls->module) {
    case ModuleKind::Linear: {
      Value x = input();
      Value w = in.get_attr(self, "weight", loc);
      Value b = in.get_attr(self, "bias", loc);
      return t_linear(in, x, w, b, loc);
    }
    case ModuleKind::Conv: {
      ConvSpec spec;
      spec.transposed = m->cls->name.rfind("ConvTranspose", 0) == 0;
      spec.nd = m->cls->name[m->cls->name.size() - 2] - '0';
      Bound fb = spec.transposed ? bind(in, a, name, {"input", "output_size="}, loc) : bind(in, a, name, {"input"}, loc);
      Value x = fb[0];
      spec.stride = plain(m, "stride");
      spec.padding = plain(m, "padding");
      spec.dilation = plain(m, "dilation");
      spec.output_padding = plain(m, "output_padding");
      if (spec.transposed && fb.has(1)) {
        // forward(x, output_size): the output_padding that reaches that size (PyTorch's _output_padding)
        TensorObj* tx = need_tensor(x, name + " input", loc);
        std::vector<int64_t> size = to_int_list(fb[1], name + " output_size", loc);
        int nd = spec.nd;
        if (static_cast<int>(size.size()) == nd + 2 || static_cast<int>(size.size()) == nd + 1) {
          size.erase(size.begin(), size.end() - nd);
        }
        if (static_cast<int>(size.size()) != nd || tx->rank() < nd) {
          fail(loc, name + ": output_size must have " + std::to_string(nd) + " spatial sizes");
        }
        std::vector<int64_t> st = to_int_list(spec.stride, name, loc), pd = to_int_list(spec.padding, name, loc),
                             dl = to_int_list(spec.dilation, name, loc),
                             ks = to_int_list(plain(m, "kernel_size"), name, loc);
        std::vector<Value> op;
        for (int d = 0; d < nd; ++d) {
          int64_t in_size = tx->shape[tx->rank() - nd + d];
          int64_t min_size = (in_size - 1) * st[d] - 2 * pd[d] + dl[d] * (ks[d] - 1) + 1;
          if (size[d] < min_size || size[d] >= min_size + st[d]) {
            fail(loc, name + ": requested output size " + std::to_string(size[d]) + " is not between " +
                          std::to_string(min_size) + " and " + std::to_string(min_size + st[d] - 1));
          }
          op.push_back(Value::integer(size[d] - min_size));
        }
        spec.output_padding = in.tuple(op);
      }
      spec.groups = to_int(plain(m, "groups"), name + " groups", loc);
      std::string mode = to_str(plain(m, "padding_mode"), name + " padding_mode", loc);
      if (mode != "zeros") fail(loc, name + ": padding_mode='" + mode + "' is not supported (only 'zeros')");
      return t_conv(in, name, x, in.get_attr(self, "weight", loc), in.get_attr(self, "bias", loc), spec, loc);
    }
    case ModuleKind::LayerNorm: {
      Value x = input();
      std::vector<int64_t> shape = to_int_list(plain(m, "normalized_shape"), name + " normalized_shape", loc);
      return t_layer_norm(in, x, shape, in.get_attr(self, "weight", loc), in.get_attr(self, "bias", loc),
                          to_float(plain(m, "eps"), name + " eps", loc), loc);
    }
    case ModuleKind::BatchNorm: return batch_norm_forward(in, m, input(), loc);
    case ModuleKind::InstanceNorm: {
      Value x = input();
      TensorObj* t = need_tensor(x, name, loc);
      int want = norm_rank(m->cls->name);
      if (t->rank() != want) {
        fail(loc, name + " expects a " + std::to_string(want) + "-D input [N, C, ...] (unbatched input is not supported), got " +
                      shape_str(t->shape));
      }
      return t_group_norm(in, x, t->shape[1], in.get_attr(self, "weight", loc), in.get_attr(self, "bias", loc),
                          to_float(plain(m, "eps"), name + " eps", loc), "instance_norm", loc);
    }
    case ModuleKind::GroupNorm:
      return t_group_norm(in, input(), plain(m, "num_groups").as_int(), in.get_attr(self, "weight", loc),
                          in.get_attr(self, "bias", loc), to_float(plain(m, "eps"), name + " eps", loc), "group_norm",
                          loc);
    case ModuleKind::RMSNorm: {
      Value x = input();
      std::optional<double> eps;
      if (!plain(m, "eps").is_none()) eps = to_float(plain(m, "eps"), name + " eps", loc);
      return t_rms_norm(in, x, to_int_list(plain(m, "normalized_shape"), name + " normalized_shape", loc),
                        in.get_attr(self, "weight", loc), eps, loc);
    }
    case ModuleKind::Embedding: return t_embedding(in, input(), in.get_attr(self, "weight", loc), name, loc);
    case ModuleKind::ReLU: return t_unary(in, Op::Relu, input(), loc);
    case ModuleKind::Sigmoid: return t_unary(in, Op::Sigmoid, input(), loc);
    case ModuleKind::Tanh: return t_unary(in, Op::Tanh, input(), loc);
    case ModuleKind::SiLU: return t_silu(in, input(), loc);
    case ModuleKind::GELU: return t_gelu(in, input(), str_of(plain(m, "approximate")), loc);
    case ModuleKind::Activation: {
      const ActivationSpec* spec = find_activation_module(m->cls->name);
      TZ_ASSERT(spec != nullptr, "activation module without a spec: " + m->cls->name);
      Value x = input();
      std::vector<double> opts;
      for (const auto& [opt, dflt] : spec->options) opts.push_back(to_float(plain(m, opt), name + "." + opt, loc));
      return t_named_activation(in, *spec, x, opts, loc);
    }
    case ModuleKind::Pool: {
      const PoolSpec* spec = find_pool_module(m->cls->name);
      TZ_ASSERT(spec != nullptr, "pooling module without a spec: " + m->cls->name);
      Value x = input();
      return t_pool(in, *spec, x, [&](const std::string& opt) { return plain(m, opt); }, loc);
    }
    case ModuleKind::Loss: {
      const LossSpec* spec = find_loss_module(m->cls->name);
      TZ_ASSERT(spec != nullptr, "loss module without a spec: " + m->cls->name);
      std::vector<std::string> params(spec->tensors.begin(), spec->tensors.end());
      Bound b = tracer::bind(in, a, name, params, loc);
      for (size_t i = 0; i < params.size(); ++i) {
        if (!b.given[i]) fail(loc, name + "() missing its argument " + params[i]);
      }
      std::vector<Value> opts;
      for (const LossOption& o : spec->options) {
        if (!o.in_module) {
          opts.push_back(Value::none());
        } else if (std::string(o.name) == "weight" || std::string(o.name) == "pos_weight") {
          AttrEntry* e = m->find(o.name);
          opts.push_back(e && e->slot == Slot::Buffer ? in.get_attr(self, o.name, loc) : Value::none());
        } else {
          opts.push_back(plain(m, o.attr));
        }
      }
      return t_loss(in, *spec, b.v, opts, loc);
    }
    case ModuleKind::Identity: return input();
    case ModuleKind::Softmax:
    case ModuleKind::LogSoftmax: {
      Value x = input();
      if (m->cls->name == "Softmax2d") {  // softmax over the channels of [C, H, W] or [N, C, H, W]
        int r = need_tensor(x, name, loc)->rank();
        if (r != 3 && r != 4) fail(loc, "nn.Softmax2d: expected 3-D or 4-D input, got " + std::to_string(r) + "-D");
        return t_softmax(in, Op::Softmax, x, -3, loc);
      }
      Value dim = plain(m, "dim");
      if (dim.is_none()) fail(loc, name + "() without dim is not supported (the implicit choice of dim is deprecated)");
      if (m->cls->name == "GLU") return t_glu(in, x, dim.as_int(), loc);
      if (m->cls->name == "Softmin") x = t_unary(in, Op::Neg, x, loc);  // softmax(-x), as nn.Softmin computes it
      return t_softmax(in, m->cls->module == ModuleKind::Softmax ? Op::Softmax : Op::LogSoftmax, x, dim.as_int(), loc);
    }
    case ModuleKind::Flatten:
      return t_flatten(in, input(), plain(m, "start_dim").as_int(), plain(m, "end_dim").as_int(), loc);
    case ModuleKind::MultiheadAttention: return multihead_attention_forward(in, m, a, loc);
    case ModuleKind::TransformerEncoderLayer: return transformer_encoder_layer_forward(in, m, a, loc);
    case ModuleKind::Pad: {
      const std::string& c = m->cls->name;
      std::string mode = c.rfind("Reflection", 0) == 0 ? "reflect" : c.rfind("Replication", 0) == 0 ? "replicate"
                         : c.rfind("Circular", 0) == 0 ? "circular" : "constant";
      Value x = input();
      return t_pad(in, x, to_int_list(plain(m, "padding"), name + " padding", loc), mode,
                   plain(m, "value").as_double(), loc);
    }
    case ModuleKind::Shuffle: {
      Value x = input();
      const std::string& c = m->cls->name;
      if (c == "ChannelShuffle") return t_channel_shuffle(in, x, plain(m, "groups").as_int(), loc);
      bool unshuffle = c == "PixelUnshuffle";
      return t_pixel_shuffle(in, x, plain(m, unshuffle ? "downscale_factor" : "upscale_factor").as_int(), unshuffle,
                             loc);
    }
    case ModuleKind::Unflatten: {
      Value x = input();
      TensorObj* t = need_tensor(x, name, loc);
      int64_t d = norm_dim(plain(m, "dim").as_int(), t->rank(), loc);
      std::vector<int64_t> shape(t->shape.begin(), t->shape.begin() + d);
      for (int64_t v : to_int_list(plain(m, "unflattened_size"), name + " unflattened_size", loc)) shape.push_back(v);
      shape.insert(shape.end(), t->shape.begin() + d + 1, t->shape.end());
      return t_reshape(in, x, shape, loc);
    }
    case ModuleKind::PReLU: {
      Value x = input();
      return t_prelu(in, x, in.get_attr(self, "weight", loc), loc);
    }
    case ModuleKind::Dropout: {
      Value x = input();
      if (plain(m, "p").as_double() > 0 && in.truthy(plain(m, "training"), loc)) {
        fail(loc, "nn.Dropout with p > 0 in training mode is random: not supported");
      }
      return x;
    }
    case ModuleKind::Sequential: {
      Value x = input();
      for (InstanceObj* c : child_modules(m)) {
        CallArgs next;
        next.pos.push_back(x);
        x = in.call(as_value(c), next, loc);
      }
      return x;
    }
    case ModuleKind::Module: fail(loc, "nn.Module has no forward");
    case ModuleKind::ModuleList:
    case ModuleKind::ModuleDict: fail(loc, name + " is not callable");
    case ModuleKind::None: break;
  }
  fail(loc, name + " is not callable");
}

void register_nn(Interp& in) {
  auto* module = in.heap.make<ClassObj>();
  module->name = "Module";
  module->builtin = true;
  module->module = ModuleKind::Module;
  module->mro = {module};
  in.module_class = module;
  in.registry["torch.nn.Module"] = Value::of(Kind::Class, module);

  const std::pair<const char*, ModuleKind> kinds[] = {{"Linear", ModuleKind::Linear},
                                                      {"Conv1d", ModuleKind::Conv},
                                                      {"Conv2d", ModuleKind::Conv},
                                                      {"Conv3d", ModuleKind::Conv},
                                                      {"ConvTranspose1d", ModuleKind::Conv},
                                                      {"ConvTranspose2d", ModuleKind::Conv},
                                                      {"ConvTranspose3d", ModuleKind::Conv},
                                                      {"LayerNorm", ModuleKind::LayerNorm},
                                                      {"BatchNorm1d", ModuleKind::BatchNorm},
                                                      {"BatchNorm2d", ModuleKind::BatchNorm},
                                                      {"BatchNorm3d", ModuleKind::BatchNorm},
                                                      {"InstanceNorm1d", ModuleKind::InstanceNorm},
                                                      {"InstanceNorm2d", ModuleKind::InstanceNorm},
                                                      {"InstanceNorm3d", ModuleKind::InstanceNorm},
                                                      {"GroupNorm", ModuleKind::GroupNorm},
                                                      {"RMSNorm", ModuleKind::RMSNorm},
                                                      {"Embedding", ModuleKind::Embedding},
                                                      {"ReLU", ModuleKind::ReLU},
                                                      {"GELU", ModuleKind::GELU},
                                                      {"SiLU", ModuleKind::SiLU},
                                                      {"Sigmoid", ModuleKind::Sigmoid},
                                                      {"Tanh", ModuleKind::Tanh},
                                                      {"Softmax", ModuleKind::Softmax},
                                                      {"LogSoftmax", ModuleKind::LogSoftmax},
                                                      {"Softmin", ModuleKind::Softmax},
                                                      {"GLU", ModuleKind::Softmax},
                                                      {"Identity", ModuleKind::Identity},
                                                      {"Flatten", ModuleKind::Flatten},
                                                      {"Dropout", ModuleKind::Dropout},
                                                      {"MultiheadAttention", ModuleKind::MultiheadAttention},
                                                      {"TransformerEncoderLayer", ModuleKind::TransformerEncoderLayer},
                                                      {"Softmax2d", ModuleKind::Softmax},
                                                      {"Dropout1d", ModuleKind::Dropout},
                                                      {"Dropout2d", ModuleKind::Dropout},
                                                      {"Dropout3d", ModuleKind::Dropout},
                                                      {"AlphaDropout", ModuleKind::Dropout},
                                                      {"FeatureAlphaDropout", ModuleKind::Dropout},
                                                      {"PixelShuffle", ModuleKind::Shuffle},
                                                      {"PixelUnshuffle", ModuleKind::Shuffle},
                                                      {"ChannelShuffle", ModuleKind::Shuffle},
                                                      {"Unflatten", ModuleKind::Unflatten},
                                                      {"PReLU", ModuleKind::PReLU},
                                                      {"Sequential", ModuleKind::Sequential},
                                                      {"ModuleList", ModuleKind::ModuleList},
                                                      {"ModuleDict", ModuleKind::ModuleDict}};
  std::vector<std::pair<const char*, ModuleKind>> all(std::begin(kinds), std::end(kinds));
  static const std::vector<std::string> pad_modules = [] {
    std::vector<std::string> names;
    for (const char* kind : {"Zero", "Constant", "Reflection", "Replication", "Circular"}) {
      for (int nd = 1; nd <= 3; ++nd) names.push_back(std::string(kind) + "Pad" + std::to_string(nd) + "d");
    }
    return names;
  }();
  for (const std::string& n : pad_modules) all.emplace_back(n.c_str(), ModuleKind::Pad);
  for (const ActivationSpec& spec : activation_specs()) all.emplace_back(spec.module, ModuleKind::Activation);
  for (const PoolSpec& spec : pool_specs()) all.emplace_back(spec.module.c_str(), ModuleKind::Pool);
  for (const LossSpec& spec : loss_specs()) all.emplace_back(spec.module, ModuleKind::Loss);
  for (const auto& [name, kind] : all) {
    auto* c = in.heap.make<ClassObj>();
    c->name = name;
    c->builtin = true;
    c->module = kind;
    c->bases = {module};
    c->mro = {c, module};
    in.registry[std::string("torch.nn.") + name] = Value::of(Kind::Class, c);
  }

  in.parameter_class = in.heap.make<ClassObj>();
  in.parameter_class->name = "Parameter";
  in.parameter_class->builtin = true;
  in.parameter_class->bases = {in.tensor_class};
  in.parameter_class->mro = {in.parameter_class, in.tensor_class};
  in.parameter_class->ctor = [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    Bound b = bind(in, a, "nn.Parameter", {"data=", "requires_grad="}, loc);
    if (in.phase == Phase::Forward) fail(loc, "nn.Parameter in forward() is not supported");
    if (!b.has(0)) fail(loc, "nn.Parameter() without data is not supported");
    TensorObj* d = need_tensor(b[0], "nn.Parameter", loc);
    bool requires_grad = b.given[1] ? to_bool(b[1], "nn.Parameter requires_grad", loc) : true;
    TensorObj* p = in.new_tensor(d->shape, d->dtype, in.phase == Phase::Init ? Phase::Init : Phase::Shape);
    p->is_param = true;
    p->requires_grad = requires_grad;
    if (in.phase == Phase::Init) {
      // A parameter shares its data's storage: an identity view of it.
      Value data = b[0];
      Interp* ip = &in;
      auto text = [ip, data, requires_grad, loc] {
        return "nn.Parameter(" + ip->tensor_expr(data, 0, loc) + (requires_grad ? "" : ", requires_grad=False") + ")";
      };
      in.set_init_expr(p, text(), kPrecPostfix, {data});
      in.make_view(p, d, true, text);
    }
    return in.wrap(p);
  };
  in.registry["torch.nn.Parameter"] = Value::of(Kind::Class, in.parameter_class);
  in.registry["torch.nn.parameter.Parameter"] = in.registry["torch.nn.Parameter"];

  // nn.init: every call is replayed as written, on the tensor's ModelNew name, at the moment it runs.
  for (const char* fn :
       {"uniform_", "normal_", "constant_", "ones_", "zeros_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_",
        "kaiming_uniform_", "kaiming_normal_", "trunc_normal_", "orthogonal_", "sparse_"}) {
    std::string name = fn;
    in.registry["torch.nn.init." + name] = in.native("nn.init." + name, [name](Interp& in, const Value&, CallArgs& a,
                                                                               SourceLoc loc) {
      Value target;
      if (!a.pos.empty()) target = a.pos[0];
      for (const auto& [k, v] : a.kw) {
        if (k == "tensor") target = v;
      }
      TensorObj* t = need_tensor(target, "nn.init." + name, loc);
      if (in.phase == Phase::Forward || t->node) fail(loc, "nn.init." + name + " in forward() is not supported");
      bool fans = name.rfind("xavier", 0) == 0 || name.rfind("kaiming", 0) == 0;
      if (fans && t->rank() < 2) {
        fail(loc, "nn.init." + name + ": fan in and fan out cannot be computed for a tensor with fewer than 2 dims");
      }
      if (in.phase == Phase::Init && t->phase == Phase::Init) {
        in.before_mutation(t, loc);
        in.replay.text(in.render_call("nn.init." + name, a, loc));
      }
      return target;
    });
  }
  in.registry["torch.nn.init.calculate_gain"] =
      in.native("nn.init.calculate_gain", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
        Bound b = bind(in, a, "nn.init.calculate_gain", {"nonlinearity", "param="}, loc);
        const std::string& n = to_str(b[0], "calculate_gain", loc);
        if (n == "linear" || n == "sigmoid" || n.rfind("conv", 0) == 0) return Value::floating(1.0);
        if (n == "tanh") return Value::floating(5.0 / 3);
        if (n == "relu") return Value::floating(std::sqrt(2.0));
        if (n == "selu") return Value::floating(3.0 / 4);
        if (n == "leaky_relu") {
          double slope = b.has(1) ? to_float(b[1], "calculate_gain", loc) : 0.01;
          return Value::floating(std::sqrt(2.0 / (1 + slope * slope)));
        }
        fail(loc, "nn.init.calculate_gain: unsupported nonlinearity '" + n + "'");
      });
  register_module_methods(in);
}

// --- nn.Module state: nn.Module.__setattr__ and the registries ---

int Interp::register_module(InstanceObj* inst, bool top) {
  inst->module_id = static_cast<int>(modules.size());
  modules.push_back(inst);
  inst->attrs.push_back({"training", Slot::Plain, true, Value::boolean(true)});
  inst->replayed = top || phase == Phase::Init;
  if (top) {
    replay.set_self(inst->module_id);
  } else if (phase == Phase::Init) {
    switch (inst->cls->module) {
      // a Sequential is rebuilt as a ModuleList: the same parameter names, and nothing callable (no torch compute)
      case ModuleKind::Sequential:
      case ModuleKind::ModuleList: replay.create(inst->module_id, "nn.ModuleList()", Holder::List); break;
      case ModuleKind::ModuleDict: replay.create(inst->module_id, "nn.ModuleDict()", Holder::Dict); break;
      default: replay.create(inst->module_id, "nn.Module()", Holder::Attr); break;
    }
  }
  return inst->module_id;
}

namespace {

void remove_entry(InstanceObj* m, const std::string& name) {
  auto& a = m->attrs;
  a.erase(std::remove_if(a.begin(), a.end(), [&](const AttrEntry& e) { return e.name == name; }), a.end());
}

}  // namespace

void Interp::register_parameter(InstanceObj* m, const std::string& name, const Value& v, SourceLoc loc) {
  if (!is_identifier(name)) fail(loc, "parameter name '" + name + "' is not a Python identifier: not supported");
  AttrEntry* e = m->find(name);
  if (e && e->slot != Slot::Param) {
    remove_entry(m, name);
    e = nullptr;
  }
  if (v.is_none()) {
    if (!e)
      m->attrs.push_back({name, Slot::Param, true, v});
    else
      e->value = v;
    return;
  }
  if (!v.is(Kind::Tensor) || !tensor_of(v)->is_param) {
    fail(loc, "cannot assign a " + type_name(v) + " as parameter '" + name + "' (nn.Parameter or None expected)");
  }
  if (phase != Phase::Init) fail(loc, "parameters can only be created in __init__");
  if (!m->replayed) fail(loc, "a parameter of a module created outside __init__ cannot be replayed in ModelNew");
  TensorObj* t = tensor_of(v);
  std::string target = InitRecorder::ref(m->module_id) + "." + name;
  replay.text(target + " = " + tensor_expr(v, 0, loc));
  t->expr = target;
  t->prec = kPrecPostfix;
  t->lvalue = true;
  registered.push_back(t);
  if (!e)
    m->attrs.push_back({name, Slot::Param, true, v});
  else
    e->value = v;
}

void Interp::register_buffer(InstanceObj* m, const std::string& name, const Value& v, bool persistent,
                             bool explicit_call, SourceLoc loc) {
  if (!is_identifier(name)) fail(loc, "buffer name '" + name + "' is not a Python identifier: not supported");
  if (!v.is_none() && !v.is(Kind::Tensor)) {
    fail(loc, "cannot assign a " + type_name(v) + " as buffer '" + name + "' (a tensor or None expected)");
  }
  AttrEntry* e = m->find(name);
  if (e && e->slot != Slot::Buffer) {
    remove_entry(m, name);
    e = nullptr;
  }
  if (phase == Phase::Init) {
    if (!m->replayed) fail(loc, "a buffer of a module created outside __init__ cannot be replayed in ModelNew");
    std::string ref = InitRecorder::ref(m->module_id);
    std::string value = v.is_none() ? "None" : tensor_expr(v, 0, loc);
    if (e && !explicit_call) {
      replay.text(ref + "." + name + " = " + value);  // reassigning a buffer keeps it a buffer
    } else {
      replay.text(ref + ".register_buffer(" + literal_repr(str(name)) + ", " + value +
                  (persistent ? "" : ", persistent=False") + ")");
    }
    if (!v.is_none()) {
      TensorObj* t = tensor_of(v);
      t->expr = ref + "." + name;
      t->prec = kPrecPostfix;
      t->lvalue = true;
      registered.push_back(t);
    }
  } else if (v.is(Kind::Tensor) && !tensor_of(v)->node) {
    fail(loc, "buffers can only be created in __init__");
  }
  if (!e)
    m->attrs.push_back({name, Slot::Buffer, persistent, v});
  else
    e->value = v;
}

void Interp::add_module(InstanceObj* m, const std::string& key, const Value& child, SourceLoc loc) {
  if (!child.is_none() && !(child.is(Kind::Instance) && child.as<InstanceObj>()->is_module())) {
    fail(loc, "cannot assign a " + type_name(child) + " as child module '" + key + "'");
  }
  AttrEntry* e = m->find(key);
  if (e && e->slot != Slot::Module) {
    remove_entry(m, key);
    e = nullptr;
  }
  if (phase == Phase::Init && !child.is_none()) {
    if (!m->replayed) fail(loc, "a module created outside __init__ cannot hold modules in ModelNew's replay");
    replay.attach(m->module_id, key, child.as<InstanceObj>()->module_id);
  }
  if (!e)
    m->attrs.push_back({key, Slot::Module, true, child});
  else
    e->value = child;
}

void Interp::module_setattr(InstanceObj* m, const std::string& name, const Value& v, SourceLoc loc) {
  // nn.Module.__setattr__: parameters, submodules and buffers go to their registries; a plain tensor
  // attribute is kept as a non-persistent buffer, so that ModelNew holds it on the right device.
  AttrEntry* e = m->find(name);
  if (v.is(Kind::Tensor) && tensor_of(v)->is_param) return register_parameter(m, name, v, loc);
  if (v.is(Kind::Instance) && v.as<InstanceObj>()->is_module()) return add_module(m, name, v, loc);
  if (e && e->slot == Slot::Param && v.is_none()) return register_parameter(m, name, v, loc);
  if (e && e->slot == Slot::Param && v.is(Kind::Tensor)) {
    fail(loc, "cannot assign a plain tensor as parameter '" + name + "' (nn.Parameter or None expected)");
  }
  if (e && e->slot == Slot::Buffer && (v.is_none() || v.is(Kind::Tensor)) && phase != Phase::Forward) {
    return register_buffer(m, name, v, e->persistent, false, loc);
  }
  if (v.is(Kind::Tensor) && phase == Phase::Init) return register_buffer(m, name, v, false, false, loc);
  if (e && e->slot != Slot::Plain) {
    remove_entry(m, name);
    e = nullptr;
  }
  if (e)
    e->value = v;
  else
    m->attrs.push_back({name, Slot::Plain, true, v});
}

Value Interp::forward_view(const Value& v, const std::string& attr, SourceLoc loc) {
  if (!v.is(Kind::Tensor) || tensor_of(v)->node) return v;
  TensorObj* t = tensor_of(v);
  if (t->path.empty()) {
    fail(loc, "the tensor attribute '" + attr + "' is not a parameter or buffer of the traced module");
  }
  TensorObj* f = new_tensor(t->shape, t->dtype, Phase::Forward);
  f->node = graph->param(t->path);
  f->is_param = t->is_param;
  return wrap(f);
}

}  // namespace tz::tracer
