// trace(): runs a module file through the interpreter, phase by phase: the top level (with --set
// overrides), get_init_inputs() and get_inputs() (shapes only), the module's __init__ (recording the init
// replay and the parameters), then forward() with one symbolic tensor per input (building the graph).
#include "trace/trace.h"

#include <algorithm>
#include <cctype>

#include "trace/interp.h"
#include "trace/tensor_ops.h"

namespace tz {

namespace {

using tracer::Interp;
using tracer::Kind;
using tracer::Value;

// --set VALUE: a Python literal (numbers, True/False/None, strings, tuples and lists of them).
class LiteralParser {
 public:
  LiteralParser(Interp& in, const std::string& text) : in_(in), s_(text) {}

  bool parse(Value& out) {
    if (!value(out)) return false;
    skip();
    return i_ == s_.size();
  }

 private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool word(const char* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s_.compare(i_, n, w) != 0) return false;
    if (i_ + n < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_ + n])) || s_[i_ + n] == '_')) return false;
    i_ += n;
    return true;
  }
  bool value(Value& out) {
    skip();
    if (i_ >= s_.size()) return false;
    char c = s_[i_];
    if (word("True")) return out = Value::boolean(true), true;
    if (word("False")) return out = Value::boolean(false), true;
    if (word("None")) return out = Value::none(), true;
    if (c == '\'' || c == '"') {
      size_t end = s_.find(c, i_ + 1);
      if (end == std::string::npos) return false;
      out = in_.str(s_.substr(i_ + 1, end - i_ - 1));
      i_ = end + 1;
      return true;
    }
    if (c == '(' || c == '[') {
      char close = c == '(' ? ')' : ']';
      ++i_;
      std::vector<Value> items;
      bool comma = false;
      for (;;) {
        skip();
        if (i_ < s_.size() && s_[i_] == close) {
          ++i_;
          break;
        }
        Value v;
        if (!value(v)) return false;
        items.push_back(v);
        skip();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
          comma = true;
          continue;
        }
        if (i_ < s_.size() && s_[i_] == close) {
          ++i_;
          break;
        }
        return false;
      }
      if (c == '(' && items.size() == 1 && !comma) return out = items[0], true;  // (3) is 3
      out = c == '(' ? in_.tuple(std::move(items)) : in_.list(std::move(items));
      return true;
    }
    size_t start = i_;
    if (c == '-' || c == '+') ++i_;
    bool is_float = false;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == '_' ||
                              ((s_[i_] == '-' || s_[i_] == '+') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E')))) {
      if (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E') is_float = true;
      ++i_;
    }
    std::string num;
    for (size_t k = start; k < i_; ++k) {
      if (s_[k] != '_') num += s_[k];
    }
    if (num.empty() || num == "-" || num == "+") return false;
    try {
      size_t used = 0;
      if (is_float) {
        double d = std::stod(num, &used);
        out = Value::floating(d);
      } else {
        long long v = std::stoll(num, &used, 0);
        out = Value::integer(v);
      }
      return used == num.size();
    } catch (...) {
      return false;
    }
  }

  Interp& in_;
  const std::string& s_;
  size_t i_ = 0;
};

SourceLoc file_start(const ast::Module& m) { return {m.file, 1, 1}; }

// The user function named `name` in the file's top level, or nullptr.
tracer::FunctionObj* top_function(Interp& in, const std::string& name) {
  auto it = in.globals->vars.find(name);
  if (it == in.globals->vars.end() || !it->second.is(Kind::Function)) return nullptr;
  return it->second.as<tracer::FunctionObj>();
}

std::vector<Value> call_top(Interp& in, tracer::FunctionObj* fn, const std::string& name) {
  tracer::CallArgs none;
  Value r = in.call_function(fn, none, fn->loc);
  if (!r.is_seq()) tracer::fail(fn->loc, name + "() must return a list or a tuple, got " + tracer::type_name(r));
  return tracer::items_of(r);
}

// Positional-parameter counts of a method after self: [required, max] (max = -1 with *args).
void arity(const tracer::FunctionObj* fn, int& required, int& max) {
  required = 0;
  max = 0;
  const auto& params = *fn->params;
  for (size_t i = 1; i < params.size(); ++i) {
    if (params[i].kind == ast::Param::Kind::Normal) {
      ++max;
      if (!fn->has_default[i]) ++required;
    } else if (params[i].kind == ast::Param::Kind::VarArgs) {
      max = -1;
      break;
    }
  }
}

std::string plural(int n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); }

// The __init__ parameters after self, as a signature: "in_features, out_features=10, *args, **kwargs".
std::string signature(const tracer::FunctionObj* fn) {
  std::string out;
  bool star_seen = false;
  const auto& params = *fn->params;
  for (size_t i = 1; i < params.size(); ++i) {
    const ast::Param& p = params[i];
    std::string item;
    switch (p.kind) {
      case ast::Param::Kind::VarArgs:
        item = "*" + p.name;
        star_seen = true;
        break;
      case ast::Param::Kind::KwArgs: item = "**" + p.name; break;
      case ast::Param::Kind::KwOnly:
        if (!star_seen) {
          out += (out.empty() ? "" : ", ") + std::string("*");
          star_seen = true;
        }
        [[fallthrough]];
      case ast::Param::Kind::Normal: {
        item = p.name;
        if (fn->has_default[i]) {
          std::string lit = tracer::literal_repr(fn->defaults[i]);
          item += "=" + (lit.empty() ? std::string("None") : lit);
        }
        break;
      }
    }
    out += (out.empty() ? "" : ", ") + item;
  }
  return out;
}

// Gives every parameter and buffer of the module tree its state_dict key (a tensor held twice keeps the
// first key, in nn.Module's order: a module's parameters, then its buffers, then its children).
void assign_paths(tracer::InstanceObj* m, const std::string& prefix, std::vector<tracer::InstanceObj*>& seen) {
  for (auto* s : seen) {
    if (s == m) return;
  }
  seen.push_back(m);
  for (tracer::Slot slot : {tracer::Slot::Param, tracer::Slot::Buffer}) {
    for (const auto& e : m->attrs) {
      if (e.slot != slot || !e.value.is(Kind::Tensor)) continue;
      tracer::TensorObj* t = tracer::tensor_of(e.value);
      if (t->path.empty()) t->path = prefix + e.name;
    }
  }
  for (const auto& e : m->attrs) {
    if (e.slot == tracer::Slot::Module && e.value.is(Kind::Instance)) {
      assign_paths(e.value.as<tracer::InstanceObj>(), prefix + e.name + ".", seen);
    }
  }
}

}  // namespace

TraceResult trace(const ast::Module& module, const TraceOptions& options) {
  TraceResult result;
  result.graph = std::make_unique<Graph>();
  result.source_path = module.file ? module.file->path : "";
  Graph& g = *result.graph;
  Interp in(module, options, &g);
  SourceLoc start = file_start(module);

  for (const auto& [name, text] : options.overrides) {
    Value v;
    if (!LiteralParser(in, text).parse(v)) {
      tracer::fail(start, "--set " + name + "=" + text + ": the value is not a Python literal");
    }
    in.override_values[name] = v;
  }

  // 1. The top level: imports, constants, functions, classes.
  in.phase = tracer::Phase::Shape;
  in.run_module();
  for (const auto& [name, text] : options.overrides) {
    if (std::find(in.overridden.begin(), in.overridden.end(), name) == in.overridden.end()) {
      tracer::fail(start, "--set: no module-level constant named '" + name + "'");
    }
  }

  // 2. Constructor arguments and example inputs (shapes and dtypes only).
  tracer::FunctionObj* get_init_inputs = top_function(in, "get_init_inputs");
  if (!get_init_inputs) tracer::fail(start, "the file defines no get_init_inputs() function");
  tracer::FunctionObj* get_inputs = top_function(in, "get_inputs");
  if (!get_inputs) tracer::fail(start, "the file defines no get_inputs() function");
  std::vector<Value> init_args = call_top(in, get_init_inputs, "get_init_inputs");
  std::vector<Value> inputs = call_top(in, get_inputs, "get_inputs");
  for (const Value& v : init_args) {
    if (tracer::literal_repr(v).empty()) {
      tracer::fail(get_init_inputs->loc, "get_init_inputs() returns a " + tracer::type_name(v) +
                                             ": only Python literals are supported as constructor arguments");
    }
  }

  // 3. The class and its constructor's arity.
  auto cls_it = in.globals->vars.find(options.class_name);
  if (cls_it == in.globals->vars.end() || !cls_it->second.is(Kind::Class)) {
    tracer::fail(start, "no class named '" + options.class_name + "' in the file");
  }
  auto* cls = cls_it->second.as<tracer::ClassObj>();
  if (cls->module == tracer::ModuleKind::None) tracer::fail(cls->def->loc, options.class_name + " is not an nn.Module");
  const Value* init_v = cls->find("__init__");
  tracer::FunctionObj* init_fn = init_v && init_v->is(Kind::Function) ? init_v->as<tracer::FunctionObj>() : nullptr;
  int required = 0, max = 0;
  if (init_fn) arity(init_fn, required, max);
  int given = static_cast<int>(init_args.size());
  if (given < required || (max >= 0 && given > max)) {
    std::string takes = max < 0           ? "at least " + plural(required)
                        : required == max ? plural(max)
                                          : std::to_string(required) + " to " + plural(max);
    tracer::fail(init_fn ? init_fn->loc : cls->def->loc, options.class_name + ".__init__ takes " + takes +
                                                             " but get_init_inputs() returns " + std::to_string(given));
  }
  if (init_fn) {
    const auto& params = *init_fn->params;
    result.init.signature = signature(init_fn);
    size_t next = 0;
    for (size_t i = 1; i < params.size(); ++i) {
      const ast::Param& p = params[i];
      if (p.kind == ast::Param::Kind::VarArgs) {
        next = init_args.size();
        continue;
      }
      if (p.kind == ast::Param::Kind::KwArgs) continue;
      Value v;
      if (p.kind == ast::Param::Kind::Normal && next < init_args.size()) {
        v = init_args[next++];
      } else if (init_fn->has_default[i]) {
        v = init_fn->defaults[i];
      } else {
        tracer::fail(init_fn->loc, options.class_name + ".__init__ needs a value for '" + p.name +
                                       "' that get_init_inputs() cannot give (keyword-only without default)");
      }
      std::string lit = tracer::literal_repr(v);
      result.init.arg_names.push_back(p.name);
      result.init.arg_values.push_back(lit.empty() ? "None" : lit);
    }
  }

  // 4. __init__ on a new instance, recording the replay.
  in.phase = tracer::Phase::Init;
  in.replay.bind(&in.stmt_stack, in.stmt_stack.size(), module.file);
  auto* top = in.heap.make<tracer::InstanceObj>();
  top->cls = cls;
  in.register_module(top, true);
  Value self = Value::of(Kind::Instance, top);
  if (init_fn) {
    tracer::CallArgs args;
    args.pos = init_args;
    in.call_function(init_fn, args, init_fn->loc, &self);
  }
  std::vector<tracer::InstanceObj*> seen;
  assign_paths(top, "", seen);
  for (tracer::TensorObj* t : in.registered) {  // in registration order
    if (!t->path.empty() && !g.find_param(t->path)) g.params.push_back({t->path, t->shape, t->dtype});
  }
  result.init.lines = in.replay.render();

  // 5. forward() on one symbolic tensor per input.
  const Value* fwd_v = cls->find("forward");
  if (!fwd_v || !fwd_v->is(Kind::Function))
    tracer::fail(cls->def->loc, options.class_name + " has no forward() method");
  auto* fwd = fwd_v->as<tracer::FunctionObj>();
  const auto& fparams = *fwd->params;
  int frequired = 0, fmax = 0;
  arity(fwd, frequired, fmax);
  int n_inputs = static_cast<int>(inputs.size());
  if (n_inputs < frequired || (fmax >= 0 && n_inputs > fmax)) {
    std::string takes = fmax < 0            ? "at least " + plural(frequired)
                        : frequired == fmax ? plural(fmax)
                                            : std::to_string(frequired) + " to " + plural(fmax);
    tracer::fail(fwd->loc, options.class_name + ".forward takes " + takes + " but get_inputs() returns " +
                               std::to_string(n_inputs));
  }
  std::vector<std::string> names;
  for (size_t i = 1; i < fparams.size(); ++i) {
    const ast::Param& p = fparams[i];
    result.forward_params.push_back(p.kind == ast::Param::Kind::VarArgs  ? "*" + p.name
                                    : p.kind == ast::Param::Kind::KwArgs ? "**" + p.name
                                                                         : p.name);
    if (p.kind == ast::Param::Kind::Normal) names.push_back(p.name);
  }
  std::string var_name = "inputs";
  for (const auto& p : fparams) {
    if (p.kind == ast::Param::Kind::VarArgs) var_name = p.name;
  }
  in.phase = tracer::Phase::Forward;
  tracer::CallArgs fargs;
  for (int i = 0; i < n_inputs; ++i) {
    const Value& v = inputs[static_cast<size_t>(i)];
    std::string name = static_cast<size_t>(i) < names.size()
                           ? names[static_cast<size_t>(i)]
                           : var_name + "_" + std::to_string(i - static_cast<int>(names.size()));
    if (!v.is(Kind::Tensor)) {
      fargs.pos.push_back(v);  // a Python value: baked into the graph, and checked by ModelNew.forward
      if (static_cast<size_t>(i) < names.size() && (v.is(Kind::Int) || v.is(Kind::Float) || v.is(Kind::Bool))) {
        result.forward_scalars.push_back({name, literal_repr(v)});
      }
      continue;
    }
    tracer::TensorObj* t = tracer::tensor_of(v);
    if (t->dtype == DType::Float64)
      tracer::fail(get_inputs->loc, "get_inputs() returns a float64 tensor: not supported");
    if (t->strided) {
      tracer::fail(get_inputs->loc, "get_inputs() returns " + name +
                                        " with a memory layout tritonize does not follow (it follows contiguous " +
                                        "tensors and permutations of fresh ones: transpose, permute, .t()): not " +
                                        "supported (make it .contiguous())");
    }
    // A permuted input: the graph's input is the tensor in memory, and forward sees it through the permutation.
    Shape stored = t->shape;
    for (size_t d = 0; d < t->perm.size(); ++d) stored[static_cast<size_t>(t->perm[d])] = t->shape[d];
    g.inputs.push_back({name, stored, t->dtype, t->perm});
    tracer::TensorObj* x = in.new_tensor(stored, t->dtype, tracer::Phase::Forward);
    x->node = g.input(static_cast<int>(g.inputs.size()) - 1);
    Value xv = in.wrap(x);
    if (!t->perm.empty()) xv = tracer::t_permute(in, xv, t->perm, get_inputs->loc);
    fargs.pos.push_back(xv);
  }
  Value out = in.call_function(fwd, fargs, fwd->loc, &self);
  auto output = [&](const Value& v) {
    if (!v.is(Kind::Tensor) || !tracer::tensor_of(v)->node) {
      tracer::fail(fwd->loc, "forward() must return tensors, got a " + tracer::type_name(v));
    }
    g.outputs.push_back(tracer::tensor_of(v)->node);
  };
  if (out.is_seq()) {
    g.output_is_tuple = true;
    if (tracer::items_of(out).empty()) tracer::fail(fwd->loc, "forward() returns an empty tuple");
    for (const Value& v : tracer::items_of(out)) output(v);
  } else {
    output(out);
  }
  result.mode_checks = in.mode_checks;
  verify(g);
  return result;
}

std::vector<std::string> supported_api() {
  SourceFile file;
  ast::Module module;
  module.file = &file;
  Graph g;
  Interp in(module, TraceOptions{}, &g);
  std::vector<std::string> names;
  for (const auto& [name, v] : in.registry) {
    if (name.rfind("torch.", 0) != 0) continue;
    bool module_class = v.is(Kind::Class) && v.as<tracer::ClassObj>()->module != tracer::ModuleKind::None;
    if (v.is(Kind::Builtin) || module_class) names.push_back(name);
  }
  for (const auto& [name, fn] : in.tensor_methods) names.push_back("Tensor." + name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace tz
