// Pooling (see pooling.h): the spellings, PyTorch's argument checks and output sizes, the graph nodes.
#include "trace/pooling.h"

#include <functional>

#include "trace/tensor_ops.h"

namespace tz::tracer {

namespace {

// kernel_size / stride / padding / dilation: one int for every pooled dim, or a tuple of one or `dims` ints.
std::vector<int64_t> per_dim(const Value& v, int dims, const std::string& fn, const std::string& what, SourceLoc loc) {
  std::vector<int64_t> out = to_int_list(v, fn + " " + what, loc);
  if (out.size() == 1) out.assign(static_cast<size_t>(dims), out[0]);
  if (static_cast<int>(out.size()) != dims) {
    fail(loc, fn + ": " + what + " must be a single int or a tuple of " + std::to_string(dims) + " ints, got " +
                  std::to_string(out.size()) + " values");
  }
  return out;
}

std::string joined(const std::vector<int64_t>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

// floor(a / b) for b > 0 (C++ division truncates towards zero).
int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// The pooled values, and with `indices` also (values, indices): the argmax of each max window as an int64 index
// into the input's flattened pooled dims (attr.str = "indices" on a second node of the same op).
Value pooled(Interp& in, TensorObj* t, Op op, Shape out, Attr attr, bool indices, SourceLoc loc) {
  check_shape(out, loc);
  auto make = [&](DType dtype, Attr a) {
    if (in.phase != Phase::Forward) return in.wrap(in.new_tensor(out, dtype, Phase::Shape));
    if (!t->node) {
      fail(loc, "a tensor created outside forward() that is not a parameter or buffer of the module is used here");
    }
    TensorObj* r = in.new_tensor(out, dtype, Phase::Forward);
    r->node = in.graph->make(op, dtype, out, {t->node}, std::move(a), loc);
    return in.wrap(r);
  };
  Value values = make(t->dtype, attr);
  if (!indices) return values;
  attr.str = "indices";
  return in.tuple({values, make(DType::Int64, attr)});
}

}  // namespace

const std::vector<PoolSpec>& pool_specs() {
  static const std::vector<PoolSpec> specs = [] {
    std::vector<PoolSpec> s;
    for (int d = 1; d <= 3; ++d) {
      std::string n = std::to_string(d) + "d";
      s.push_back({PoolKind::Max, d, "max_pool" + n, "MaxPool" + n,
                   {"kernel_size", "stride=", "padding=", "dilation=", "ceil_mode=", "return_indices="},
                   {"kernel_size", "stride=", "padding=", "dilation=", "return_indices=", "ceil_mode="}});
      std::vector<std::string> avg = {"kernel_size", "stride=", "padding=", "ceil_mode=", "count_include_pad="};
      if (d > 1) avg.push_back("divisor_override=");  // avg_pool1d has none
      s.push_back({PoolKind::Avg, d, "avg_pool" + n, "AvgPool" + n, avg, avg});
      s.push_back({PoolKind::AdaptiveMax, d, "adaptive_max_pool" + n, "AdaptiveMaxPool" + n,
                   {"output_size", "return_indices="}, {"output_size", "return_indices="}});
      s.push_back({PoolKind::AdaptiveAvg, d, "adaptive_avg_pool" + n, "AdaptiveAvgPool" + n, {"output_size"},
                   {"output_size"}});
    }
    return s;
  }();
  return specs;
}

const PoolSpec* find_pool_module(const std::string& module) {
  for (const auto& s : pool_specs()) {
    if (s.module == module) return &s;
  }
  return nullptr;
}

Value pool_default(const std::string& param) {
  if (param == "padding") return Value::integer(0);
  if (param == "dilation") return Value::integer(1);
  if (param == "ceil_mode" || param == "return_indices") return Value::boolean(false);
  if (param == "count_include_pad") return Value::boolean(true);
  return Value::none();  // stride (= kernel_size), divisor_override
}

Value t_pool(Interp& in, const PoolSpec& spec, const Value& x, const std::function<Value(const std::string&)>& option,
             SourceLoc loc) {
  const std::string& fn = spec.function;
  TensorObj* t = need_tensor(x, fn, loc);
  int dims = spec.dims;
  if (t->rank() != dims + 1 && t->rank() != dims + 2) {
    fail(loc, fn + ": expected a " + std::to_string(dims + 1) + "-D or " + std::to_string(dims + 2) +
                  "-D (batch mode) input, got a tensor of shape " + shape_str(t->shape));
  }
  if (!is_floating(t->dtype) || t->dtype == DType::Float64) {
    fail(loc, fn + " of a " + torch_dtype_name(t->dtype) + " tensor is not supported");
  }
  int lead = t->rank() - dims;
  for (int i = 0; i < t->rank(); ++i) {
    if (t->shape[i] == 0) fail(loc, fn + ": the input " + shape_str(t->shape) + " is empty");
  }
  bool adaptive = spec.kind == PoolKind::AdaptiveMax || spec.kind == PoolKind::AdaptiveAvg;
  bool max = spec.kind == PoolKind::Max || spec.kind == PoolKind::AdaptiveMax;
  bool indices = max && to_bool(option("return_indices"), fn + " return_indices", loc);
  Shape out(t->shape.begin(), t->shape.begin() + lead);
  Attr a;
  if (adaptive) {
    // output_size: an int, or a tuple whose None entries keep the input's size.
    Value os = option("output_size");
    if (os.is_none()) fail(loc, fn + ": output_size must be an int or a tuple, not None");
    std::vector<Value> items;
    if (os.is_seq()) items = items_of(os);
    else items.assign(static_cast<size_t>(dims), os);
    if (static_cast<int>(items.size()) != dims) {
      fail(loc, fn + ": output_size must be an int or a tuple of " + std::to_string(dims) + " entries, got " +
                    std::to_string(items.size()));
    }
    for (int d = 0; d < dims; ++d) {
      int64_t size = t->shape[lead + d];
      // PyTorch takes None entries (keep the input's size) only in the 2-d and 3-d spellings.
      if (items[d].is_none() && dims == 1) fail(loc, fn + ": output_size must be an int, not None");
      int64_t o = items[d].is_none() ? size : to_int(items[d], fn + " output_size", loc);
      if (o <= 0) fail(loc, fn + ": output_size must be positive, got " + std::to_string(o));
      out.push_back(o);
      a.ints.push_back(o);
    }
    Op op = spec.kind == PoolKind::AdaptiveMax ? Op::AdaptiveMaxPool : Op::AdaptiveAvgPool;
    return pooled(in, t, op, out, a, indices, loc);
  }

  std::vector<int64_t> k = per_dim(option("kernel_size"), dims, fn, "kernel_size", loc);
  Value sv = option("stride");
  bool no_stride = sv.is_none() || (sv.is_seq() && items_of(sv).empty());
  std::vector<int64_t> s = no_stride ? k : per_dim(sv, dims, fn, "stride", loc);
  std::vector<int64_t> p = per_dim(option("padding"), dims, fn, "padding", loc);
  std::vector<int64_t> dil = max ? per_dim(option("dilation"), dims, fn, "dilation", loc)
                                 : std::vector<int64_t>(static_cast<size_t>(dims), 1);
  bool ceil_mode = to_bool(option("ceil_mode"), fn + " ceil_mode", loc);
  for (int d = 0; d < dims; ++d) {
    if (k[d] <= 0) fail(loc, fn + ": kernel_size must be greater than zero, but got " + joined(k, "x"));
    if (s[d] <= 0) fail(loc, fn + ": stride must be greater than zero, but got " + joined(s, "x"));
    if (dil[d] <= 0) fail(loc, fn + ": dilation must be greater than zero, but got " + joined(dil, "x"));
    if (p[d] < 0) fail(loc, fn + ": pad must be non-negative, but got pad: " + std::to_string(p[d]));
    // PyTorch's message, which speaks of the effective kernel but compares with kernel_size / 2.
    if (p[d] > k[d] / 2) {
      fail(loc, fn + ": pad should be at most half of effective kernel size, but got pad=" + std::to_string(p[d]) +
                    ", kernel_size=" + std::to_string(k[d]) + " and dilation=" + std::to_string(dil[d]));
    }
  }
  if (spec.kind == PoolKind::Avg && dims == 3) {
    // avg_pool3d alone also wants every window to fit the unpadded input.
    const int64_t* in_size = &t->shape[lead];
    if (in_size[0] < k[0] || in_size[1] < k[1] || in_size[2] < k[2]) {
      fail(loc, fn + ": input image (T: " + std::to_string(in_size[0]) + " H: " + std::to_string(in_size[1]) +
                    " W: " + std::to_string(in_size[2]) + ") smaller than kernel size (kT: " + std::to_string(k[0]) +
                    " kH: " + std::to_string(k[1]) + " kW: " + std::to_string(k[2]) + ")");
    }
  }
  bool bad = false;
  for (int d = 0; d < dims; ++d) {
    int64_t size = t->shape[lead + d];
    int64_t span = size + 2 * p[d] - dil[d] * (k[d] - 1) - 1 + (ceil_mode ? s[d] - 1 : 0);
    int64_t o = floor_div(span, s[d]) + 1;
    // PyTorch's rule: with ceil_mode, the last window must start inside the input or its left padding.
    if (ceil_mode && (o - 1) * s[d] >= size + p[d]) --o;
    bad = bad || o <= 0;
    out.push_back(o);
    for (int64_t v : {k[d], s[d], p[d], dil[d]}) a.ints.push_back(v);
  }
  if (bad) {
    Shape given(t->shape.begin() + (lead - 1), t->shape.end()), got(out.begin() + (lead - 1), out.end());
    fail(loc, fn + ": given input size: (" + joined(given, "x") + "). Calculated output size: (" + joined(got, "x") +
                  "). Output size is too small");
  }
  if (spec.kind == PoolKind::Avg) {
    bool include_pad = to_bool(option("count_include_pad"), fn + " count_include_pad", loc);
    int64_t divisor = 0;
    if (dims > 1 && !option("divisor_override").is_none()) {
      divisor = to_int(option("divisor_override"), fn + " divisor_override", loc);
      if (divisor == 0) fail(loc, fn + ": divisor must be not zero");
    }
    a.floats = {include_pad ? 1.0 : 0.0, static_cast<double>(divisor)};
  }
  return pooled(in, t, max ? Op::MaxPool : Op::AvgPool, out, a, indices, loc);
}

void register_pooling(Interp& in) {
  for (const PoolSpec& spec : pool_specs()) {
    std::vector<std::string> params = {"input"};
    params.insert(params.end(), spec.fn_params.begin(), spec.fn_params.end());
    std::string shown = "F." + spec.function;
    BuiltinFn fn = [spec, params, shown](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
      Bound b = tracer::bind(in, a, shown, params, loc);
      auto option = [&](const std::string& name) {
        for (size_t i = 1; i < params.size(); ++i) {
          std::string p = params[i];
          if (p.back() == '=') p.pop_back();
          if (p == name) return b.has(i) ? b[i] : pool_default(name);
        }
        return pool_default(name);
      };
      return t_pool(in, spec, b[0], option, loc);
    };
    Value v = in.native("F." + spec.function, fn);
    in.registry["torch.nn.functional." + spec.function] = v;
    // torch.max_pool{1,2,3}d, torch.avg_pool1d and torch.adaptive_avg_pool1d exist as well (with the same
    // parameters; torch.adaptive_max_pool1d returns indices too, so it is left out).
    bool in_torch = spec.kind == PoolKind::Max || (spec.dims == 1 && spec.kind != PoolKind::AdaptiveMax);
    if (in_torch) in.registry["torch." + spec.function] = in.native("torch." + spec.function, fn);
  }
}

}  // namespace tz::tracer
