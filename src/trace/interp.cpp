// The Python-subset interpreter: statements, expressions, names and scopes, calls, classes and attributes.
// Tensors flow through here untouched; their operations live in tensor_ops.cpp and torch_api.cpp.
#include "trace/interp.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "trace/losses.h"
#include "trace/math_fns.h"
#include "trace/tensor_ops.h"

namespace tz::tracer {

void fail(SourceLoc loc, const std::string& message, std::string note) {
  throw UserError(loc, message, std::move(note));
}

namespace {

constexpr int64_t kMaxSteps = 1000000;
constexpr int kMaxDepth = 200;

int binop_prec(ast::Op op) {
  switch (op) {
    case ast::Op::Add:
    case ast::Op::Sub: return kPrecAdd;
    case ast::Op::Mul:
    case ast::Op::Div:
    case ast::Op::FloorDiv:
    case ast::Op::Mod:
    case ast::Op::MatMul: return kPrecMul;
    case ast::Op::Pow: return kPrecPow;
    case ast::Op::LShift:
    case ast::Op::RShift: return kPrecShift;
    case ast::Op::BitAnd: return kPrecBitAnd;
    case ast::Op::BitOr: return kPrecBitOr;
    case ast::Op::BitXor: return kPrecBitXor;
    case ast::Op::And: return kPrecAnd;
    case ast::Op::Or: return kPrecOr;
    default: return kPrecCompare;
  }
}

// Depth-first, left to right, each class kept at its last occurrence: C3's answer for the hierarchies
// module files build (single inheritance, diamonds over nn.Module).
std::vector<ClassObj*> linearize(ClassObj* cls) {
  std::vector<ClassObj*> order;
  std::function<void(ClassObj*)> visit = [&](ClassObj* c) {
    order.push_back(c);
    for (ClassObj* b : c->bases) visit(b);
  };
  visit(cls);
  std::vector<ClassObj*> out;
  for (size_t i = 0; i < order.size(); ++i) {
    if (std::find(order.begin() + static_cast<std::ptrdiff_t>(i) + 1, order.end(), order[i]) == order.end()) {
      out.push_back(order[i]);
    }
  }
  return out;
}

int64_t checked(bool overflow, int64_t v, SourceLoc loc) {
  if (overflow) fail(loc, "integer overflow: the tracer computes with 64-bit integers");
  return v;
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t py_mod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

double py_fmod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// The message for using something we do not implement; torch.nn classes get "yet" (they are planned).
std::string unsupported(const std::string& name) {
  std::string shown = display_name(name);
  size_t dot = shown.rfind('.');
  std::string last = dot == std::string::npos ? shown : shown.substr(dot + 1);
  bool nn_class = shown.rfind("nn.", 0) == 0 && !last.empty() && std::isupper(static_cast<unsigned char>(last[0]));
  return shown + (nn_class ? " is not supported yet" : " is not supported");
}

// RAII for the interpreter's stacks, so that hasattr()'s caught errors leave them balanced.
template <class T>
struct PopGuard {
  std::vector<T>& v;
  ~PopGuard() { v.pop_back(); }
};

}  // namespace

std::string display_name(const std::string& qualname) {
  static const std::pair<const char*, const char*> kPrefixes[] = {
      {"torch.nn.functional.", "F."}, {"torch.nn.init.", "nn.init."}, {"torch.nn.", "nn."}};
  for (const auto& [from, to] : kPrefixes) {
    std::string f = from;
    if (qualname.rfind(f, 0) == 0) return to + qualname.substr(f.size());
  }
  return qualname;
}

// --- argument binding and conversions ---

Bound bind(Interp& in, const CallArgs& a, const std::string& fname, std::initializer_list<const char*> params,
           SourceLoc loc) {
  // Qualified: with std:: arguments, argument-dependent lookup would also find std::bind.
  return tracer::bind(in, a, fname, std::vector<std::string>(params.begin(), params.end()), loc);
}

Bound bind(Interp& in, const CallArgs& a, const std::string& fname, const std::vector<std::string>& params,
           SourceLoc loc) {
  struct P {
    std::string name;
    bool optional, star;
  };
  std::vector<P> ps;
  for (const std::string& p : params) {
    std::string s = p;
    bool star = s[0] == '*';
    bool optional = s.back() == '=';
    if (star) s = s.substr(1);
    if (optional) s.pop_back();
    ps.push_back({s, optional, star});
  }
  Bound b;
  b.v.resize(ps.size());
  b.given.assign(ps.size(), 0);
  size_t pi = 0;
  for (size_t i = 0; i < a.pos.size(); ++i) {
    if (pi < ps.size() && ps[pi].star) {
      b.v[pi] = in.tuple(std::vector<Value>(a.pos.begin() + static_cast<std::ptrdiff_t>(i), a.pos.end()));
      b.given[pi] = 1;
      pi = ps.size() + 1;  // everything after *name is keyword-only
      break;
    }
    if (pi >= ps.size()) {
      fail(loc, fname + "() takes at most " + std::to_string(ps.size()) + " positional arguments (" +
                    std::to_string(a.pos.size()) + " given)");
    }
    b.v[pi] = a.pos[i];
    b.given[pi] = 1;
    ++pi;
  }
  for (size_t i = 0; i < ps.size(); ++i) {
    if (ps[i].star && !b.given[i]) b.v[i] = in.tuple({});
  }
  for (const auto& [k, v] : a.kw) {
    size_t i = 0;
    while (i < ps.size() && (ps[i].star || ps[i].name != k)) ++i;
    if (i == ps.size()) fail(loc, fname + "() got an unexpected keyword argument '" + k + "'");
    if (b.given[i]) fail(loc, fname + "() got multiple values for argument '" + k + "'");
    b.v[i] = v;
    b.given[i] = 1;
  }
  for (size_t i = 0; i < ps.size(); ++i) {
    if (!ps[i].optional && !ps[i].star && !b.given[i]) {
      fail(loc, fname + "() missing required argument '" + ps[i].name + "'");
    }
  }
  return b;
}

int64_t to_int(const Value& v, const std::string& what, SourceLoc loc) {
  if (v.is_int_like()) return v.as_int();
  fail(loc, what + ": expected an int, got " + type_name(v));
}

double to_float(const Value& v, const std::string& what, SourceLoc loc) {
  if (v.is_number()) return v.as_double();
  fail(loc, what + ": expected a number, got " + type_name(v));
}

bool to_bool(const Value& v, const std::string& what, SourceLoc loc) {
  if (v.is_int_like()) return v.as_int() != 0;
  if (v.is_none()) return false;
  fail(loc, what + ": expected a bool, got " + type_name(v));
}

const std::string& to_str(const Value& v, const std::string& what, SourceLoc loc) {
  if (v.is(Kind::Str)) return str_of(v);
  fail(loc, what + ": expected a string, got " + type_name(v));
}

DType to_dtype(const Value& v, const std::string& what, SourceLoc loc) {
  if (v.is(Kind::DType)) {
    if (v.dtype == DType::Float64) fail(loc, "float64 tensors are not supported");
    return v.dtype;
  }
  if (v.is(Kind::Unknown)) fail(loc, unsupported(v.as<UnknownObj>()->name));
  fail(loc, what + ": expected a torch dtype, got " + type_name(v));
}

std::vector<int64_t> to_int_list(const Value& v, const std::string& what, SourceLoc loc) {
  std::vector<int64_t> out;
  if (v.is_int_like()) return {v.as_int()};
  if (!v.is_seq()) fail(loc, what + ": expected a tuple of ints, got " + type_name(v));
  for (const Value& x : items_of(v)) out.push_back(to_int(x, what, loc));
  return out;
}

std::vector<int64_t> to_ints(const std::vector<Value>& args, const std::string& what, SourceLoc loc) {
  if (args.size() == 1 && args[0].is_seq()) return to_int_list(args[0], what, loc);
  std::vector<int64_t> out;
  for (const Value& x : args) out.push_back(to_int(x, what, loc));
  return out;
}

// --- construction ---

Interp::Interp(const ast::Module& m, const TraceOptions& opts, Graph* g)
    : graph(g), file(m.file), module(m), options(opts) {
  globals = heap.make<Scope>();
  globals->is_module = true;
  frames_.push_back({globals});
  register_builtins(*this);
  register_torch(*this);
  register_nn(*this);
  register_losses(*this);
  register_math(*this);
}

Value Interp::str(std::string s) {
  auto* o = heap.make<StrObj>();
  o->s = std::move(s);
  return Value::of(Kind::Str, o);
}

Value Interp::tuple(std::vector<Value> items, std::vector<std::string> field_names) {
  auto* o = heap.make<SeqObj>();
  o->items = std::move(items);
  o->field_names = std::move(field_names);
  return Value::of(Kind::Tuple, o);
}

Value Interp::list(std::vector<Value> items) {
  auto* o = heap.make<SeqObj>();
  o->items = std::move(items);
  return Value::of(Kind::List, o);
}

Value Interp::native(std::string name, BuiltinFn fn) {
  auto* o = heap.make<BuiltinObj>();
  o->name = std::move(name);
  o->fn = std::move(fn);
  return Value::of(Kind::Builtin, o);
}

Value Interp::bound_native(const Value& self, std::string name, const BuiltinFn& fn) {
  auto* o = heap.make<BuiltinObj>();
  o->name = std::move(name);
  o->fn = fn;
  o->self = self;
  o->has_self = true;
  return Value::of(Kind::Builtin, o);
}

TensorObj* Interp::new_tensor(Shape shape, DType dtype, Phase p) {
  auto* t = heap.make<TensorObj>();
  t->shape = std::move(shape);
  t->dtype = dtype;
  t->phase = p;
  return t;
}

Value Interp::namespace_value(const std::string& qualname) {
  auto it = namespaces_.find(qualname);
  if (it != namespaces_.end()) return it->second;
  auto* o = heap.make<NamespaceObj>();
  o->qualname = qualname;
  o->display = display_name(qualname);
  Value v = Value::of(Kind::Namespace, o);
  namespaces_[qualname] = v;
  return v;
}

Value Interp::opaque_module(const std::string& qualname, const std::string& display) {
  auto* o = heap.make<NamespaceObj>();
  o->qualname = qualname;
  o->display = display;
  o->opaque = true;
  return Value::of(Kind::Namespace, o);
}

Value Interp::unknown(const std::string& name) {
  auto* o = heap.make<UnknownObj>();
  o->name = name;
  return Value::of(Kind::Unknown, o);
}

ClassObj* Interp::builtin_class(const std::string& name) {
  auto it = builtin_classes_.find(name);
  if (it != builtin_classes_.end()) return it->second;
  auto* c = heap.make<ClassObj>();
  c->name = name;
  c->builtin = true;
  c->mro = {c};
  builtin_classes_[name] = c;
  return c;
}

void Interp::step(SourceLoc loc) {
  if (++steps_ > kMaxSteps) {
    fail(loc, "execution exceeded " + std::to_string(kMaxSteps) + " steps: an endless loop?");
  }
}

// --- statements ---

void Interp::run_module() {
  frames_.resize(1);
  // Imported, not run as a script: `if __name__ == "__main__":` blocks are skipped.
  std::string stem = file ? file->path.substr(file->path.find_last_of('/') + 1) : "model";
  globals->vars["__name__"] = str(stem.substr(0, stem.rfind('.')));
  globals->vars["__file__"] = str(file ? file->path : "model.py");
  exec_block(module.body);
}

Interp::Flow Interp::exec_block(const std::vector<ast::Stmt*>& body) {
  for (const ast::Stmt* s : body) {
    Flow f = exec(s);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Interp::Flow Interp::exec(const ast::Stmt* s) {
  using K = ast::StmtKind;
  step(s->loc);
  stmt_stack.push_back(s);
  PopGuard<const ast::Stmt*> guard{stmt_stack};
  switch (s->kind) {
    case K::Expr:
      if (s->value->kind != ast::ExprKind::Str) eval(s->value);  // docstrings are skipped
      return Flow::Normal;
    case K::Assign: {
      Value v = eval(s->value);
      for (const ast::Expr* t : s->targets) assign(t, v);
      return Flow::Normal;
    }
    case K::AnnAssign:
      if (s->value) assign(s->targets[0], eval(s->value));
      return Flow::Normal;
    case K::AugAssign: {
      // The target is evaluated once; lists extend in place as in Python, tensors rebind (out of place).
      const ast::Expr* t = s->targets[0];
      if (t->kind == ast::ExprKind::Name) {
        Value cur = load_name(t->name, t->loc);
        Value rhs = eval(s->value);
        if (cur.is(Kind::List) && s->op == ast::Op::Add) {
          for (const Value& x : iterate(rhs, s->value->loc)) items_of(cur).push_back(x);
          return Flow::Normal;
        }
        store_name(t->name, binary(s->op, cur, rhs, s->loc), t->loc);
      } else if (t->kind == ast::ExprKind::Attribute) {
        Value obj = eval(t->lhs);
        Value cur = get_attr(obj, t->name, t->loc);
        Value rhs = eval(s->value);
        set_attr(obj, t->name, binary(s->op, cur, rhs, s->loc), t->loc);
      } else if (t->kind == ast::ExprKind::Subscript) {
        Value obj = eval(t->lhs);
        Value idx = eval(t->rhs);
        Value cur = subscript(obj, idx, t->loc);
        Value rhs = eval(s->value);
        Value nv = binary(s->op, cur, rhs, s->loc);
        if (obj.is(Kind::List)) {
          auto& items = items_of(obj);
          int64_t i = to_int(idx, "list index", t->loc);
          if (i < 0) i += static_cast<int64_t>(items.size());
          items[static_cast<size_t>(i)] = nv;
        } else if (obj.is(Kind::Dict)) {
          for (auto& [k, v] : obj.as<DictObj>()->items) {
            if (values_equal(k, idx)) v = nv;
          }
        } else {
          fail(t->loc, "augmented assignment to an item of " + type_name(obj) + " is not supported");
        }
      } else {
        fail(t->loc, "augmented assignment to this target is not supported");
      }
      return Flow::Normal;
    }
    case K::Return: {
      Value v = s->value ? eval(s->value) : Value::none();
      frame().ret = v;
      return Flow::Return;
    }
    case K::If: return truthy(eval(s->test), s->test->loc) ? exec_block(s->body) : exec_block(s->orelse);
    case K::For: {
      Value seq = eval(s->value);
      auto body = [&](const Value& item) -> std::optional<Flow> {
        step(s->loc);
        assign(s->targets[0], item);
        Flow f = exec_block(s->body);
        if (f == Flow::Break) return Flow::Normal;  // leave the loop, skip `else`
        if (f == Flow::Return) return Flow::Return;
        return std::nullopt;
      };
      if (seq.is(Kind::Range)) {  // iterated lazily: a large range costs steps, not memory
        auto* r = seq.as<RangeObj>();
        for (int64_t k = 0, n = r->size(); k < n; ++k) {
          if (auto f = body(Value::integer(r->at(k)))) return *f;
        }
      } else {
        for (const Value& item : iterate(seq, s->value->loc)) {
          if (auto f = body(item)) return *f;
        }
      }
      return exec_block(s->orelse);
    }
    case K::While:
      while (truthy(eval(s->test), s->test->loc)) {
        step(s->loc);
        Flow f = exec_block(s->body);
        if (f == Flow::Break) return Flow::Normal;
        if (f == Flow::Return) return Flow::Return;
      }
      return exec_block(s->orelse);
    case K::Break: return Flow::Break;
    case K::Continue: return Flow::Continue;
    case K::Pass: return Flow::Normal;
    case K::FunctionDef: store_name(s->name, make_function(s, nullptr), s->loc); return Flow::Normal;
    case K::ClassDef: exec_class(s); return Flow::Normal;
    case K::Import:
    case K::ImportFrom: exec_import(s); return Flow::Normal;
    case K::Assert:
      if (!truthy(eval(s->test), s->test->loc)) {
        fail(s->loc, "assertion failed" + (s->value ? ": " + py_str(eval(s->value)) : std::string()));
      }
      return Flow::Normal;
    case K::Raise: {
      std::string what = "raise";
      if (s->value) {
        Value e = eval(s->value);
        if (e.is(Kind::Instance) && e.as<InstanceObj>()->find("args")) {
          const Value& args = e.as<InstanceObj>()->find("args")->value;
          what = e.as<InstanceObj>()->cls->name;
          if (args.is_seq() && !items_of(args).empty()) what += ": " + py_str(items_of(args)[0]);
        } else {
          what = type_name(e);
        }
      }
      fail(s->loc, "the module raised an exception: " + what);
    }
    case K::Delete:
      for (const ast::Expr* t : s->targets) delete_target(t);
      return Flow::Normal;
    case K::Global:
      for (const auto& n : s->names) frame().scope->globals.push_back(n);
      return Flow::Normal;
    case K::Nonlocal:
      for (const auto& n : s->names) frame().scope->nonlocals.push_back(n);
      return Flow::Normal;
    case K::With: {
      // Only the gradient-mode context managers: their bodies run unchanged (nothing here is differentiated).
      for (size_t i = 0; i < s->items.size(); ++i) {
        Value cm = eval(s->items[i]);
        bool grad_mode = cm.is(Kind::Namespace) && cm.as<NamespaceObj>()->qualname == "<grad mode>";
        if (!grad_mode) {
          fail(s->items[i]->loc, "the with statement is only supported for torch.no_grad()");
        }
        if (i < s->targets.size() && s->targets[i]) assign(s->targets[i], Value::none());
      }
      return exec_block(s->body);
    }
    case K::Try: {
      // Exact when the body does not raise; when it does, the trace stops with that error anyway.
      Flow f = exec_block(s->body);
      if (f == Flow::Normal) f = exec_block(s->orelse);
      if (f != Flow::Normal) return f;
      return exec_block(s->finalbody);
    }
    case K::ExceptHandler: return Flow::Normal;
  }
  return Flow::Normal;
}

void Interp::exec_import(const ast::Stmt* s) {
  // Imports are recorded, never executed: torch, torch.nn, torch.nn.functional, torch.nn.init, math and
  // collections are known; anything else binds an opaque module that only errors when used.
  auto known = [&](const std::string& q) { return registry.count(q) != 0; };
  auto module_value = [&](const std::string& q, const std::string& display) {
    return known(q) ? namespace_value(q) : opaque_module(q, display);
  };
  if (s->kind == ast::StmtKind::Import) {
    for (const ast::Alias& a : s->aliases) {
      if (a.asname.empty()) {
        std::string top = a.name.substr(0, a.name.find('.'));
        store_name(top, module_value(top, top), a.loc);
      } else {
        store_name(a.asname, module_value(a.name, a.asname), a.loc);
      }
    }
    return;
  }
  std::string mod = s->module;
  if (mod == "__future__") return;
  bool mod_known = known(mod);
  for (const ast::Alias& a : s->aliases) {
    if (a.name == "*") fail(a.loc, "from " + mod + " import * is not supported");
    std::string q = mod + "." + a.name;
    std::string bind_as = a.asname.empty() ? a.name : a.asname;
    Value v;
    auto it = registry.find(q);
    if (it != registry.end()) {
      v = it->second;
    } else if (mod_known) {
      v = unknown(q);
    } else {
      v = opaque_module(q, bind_as);
    }
    store_name(bind_as, v, a.loc);
  }
}

void Interp::exec_class(const ast::Stmt* s) {
  auto* cls = heap.make<ClassObj>();
  cls->name = s->name;
  cls->def = s;
  for (const ast::Arg& a : s->bases) {
    if (!a.keyword.empty()) continue;  // metaclass=... has no effect on what we trace
    Value b = eval(a.value);
    if (b.is(Kind::Unknown)) fail(a.loc, unsupported(b.as<UnknownObj>()->name));
    if (!b.is(Kind::Class)) fail(a.loc, "class " + s->name + ": base " + type_name(b) + " is not a class");
    ClassObj* base = b.as<ClassObj>();
    if (base->builtin && base->module != ModuleKind::None && base->module != ModuleKind::Module) {
      fail(a.loc, "subclassing " + display_name("torch.nn." + base->name) + " is not supported");
    }
    cls->bases.push_back(base);
    if (base->module != ModuleKind::None) cls->module = ModuleKind::Module;
  }
  cls->mro = linearize(cls);
  auto* scope = heap.make<Scope>();
  scope->is_class = true;
  scope->parent = frame().scope;
  {
    frames_.push_back({scope});
    PopGuard<Frame> guard{frames_};
    exec_block(s->body);
  }
  for (auto& [name, v] : scope->vars) {
    if (v.is(Kind::Function) && v.as<FunctionObj>()->owner == nullptr) v.as<FunctionObj>()->owner = cls;
    cls->attrs.emplace_back(name, v);
  }
  store_name(s->name, Value::of(Kind::Class, cls), s->loc);
}

Value Interp::make_function(const ast::Stmt* def, const ast::Expr* lambda) {
  auto* fn = heap.make<FunctionObj>();
  const std::vector<ast::Param>& params = def ? def->params : lambda->params;
  fn->name = def ? def->name : "<lambda>";
  fn->params = &params;
  fn->def = def;
  fn->loc = def ? def->loc : lambda->loc;
  fn->body = def ? &def->body : nullptr;
  fn->lambda_body = lambda ? lambda->lhs : nullptr;
  fn->closure = frame().scope;
  for (const ast::Param& p : params) {
    fn->has_default.push_back(p.default_value != nullptr);
    fn->defaults.push_back(p.default_value ? eval(p.default_value) : Value::none());
  }
  if (def) {
    // Decorators are ignored except the three that change how a method binds.
    for (const ast::Expr* d : def->decorators) {
      if (d->kind != ast::ExprKind::Name) continue;
      if (d->name == "staticmethod") fn->is_static = true;
      if (d->name == "classmethod") fn->is_classmethod = true;
      if (d->name == "property") fn->is_property = true;
    }
  }
  return Value::of(Kind::Function, fn);
}

void Interp::store_name(const std::string& name, const Value& v, SourceLoc loc) {
  Scope* scope = frame().scope;
  auto declared = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (declared(scope->globals)) scope = globals;
  if (declared(scope->nonlocals)) {
    for (Scope* s = scope->parent; s; s = s->parent) {
      if (!s->is_class && s->vars.count(name)) {
        s->vars[name] = v;
        return;
      }
    }
    fail(loc, "no binding for nonlocal '" + name + "' found");
  }
  if (scope == globals && frames_.size() == 1 && !override_values.empty()) {
    // --set NAME=VALUE replaces every top-level assignment to NAME, so that constants derived from it
    // later in the file follow the new value.
    auto it = override_values.find(name);
    if (it != override_values.end()) {
      overridden.push_back(name);
      scope->vars[name] = it->second;
      return;
    }
  }
  scope->vars[name] = v;
}

Value Interp::load_name(const std::string& name, SourceLoc loc) {
  Scope* s = frame().scope;
  auto it = s->vars.find(name);
  if (it != s->vars.end()) return it->second;
  for (s = s->parent; s; s = s->parent) {
    if (s->is_class) continue;  // a class body's names are not visible to the functions it defines
    it = s->vars.find(name);
    if (it != s->vars.end()) return it->second;
  }
  auto b = builtins.find(name);
  if (b != builtins.end()) return b->second;
  fail(loc, "name '" + name + "' is not defined");
}

void Interp::assign(const ast::Expr* target, const Value& v) {
  using E = ast::ExprKind;
  switch (target->kind) {
    case E::Name: store_name(target->name, v, target->loc); return;
    case E::Tuple:
    case E::List: {
      std::vector<Value> items = iterate(v, target->loc);
      const auto& elts = target->elts;
      size_t star = elts.size();
      for (size_t i = 0; i < elts.size(); ++i) {
        if (elts[i]->kind == E::Starred) star = i;
      }
      if (star == elts.size()) {
        if (items.size() != elts.size()) {
          fail(target->loc, "cannot unpack " + std::to_string(items.size()) + " values into " +
                                std::to_string(elts.size()) + " targets");
        }
        for (size_t i = 0; i < elts.size(); ++i) assign(elts[i], items[i]);
        return;
      }
      size_t after = elts.size() - star - 1;
      if (items.size() < star + after) fail(target->loc, "not enough values to unpack");
      for (size_t i = 0; i < star; ++i) assign(elts[i], items[i]);
      std::vector<Value> rest(items.begin() + static_cast<std::ptrdiff_t>(star),
                              items.end() - static_cast<std::ptrdiff_t>(after));
      assign(elts[star]->lhs, list(std::move(rest)));
      for (size_t i = 0; i < after; ++i) assign(elts[star + 1 + i], items[items.size() - after + i]);
      return;
    }
    case E::Attribute: set_attr(eval(target->lhs), target->name, v, target->loc); return;
    case E::Subscript: {
      Value obj = eval(target->lhs);
      Value idx = eval(target->rhs);
      if (obj.is(Kind::List)) {
        auto& items = items_of(obj);
        int64_t i = to_int(idx, "list index", target->loc);
        if (i < 0) i += static_cast<int64_t>(items.size());
        if (i < 0 || i >= static_cast<int64_t>(items.size())) fail(target->loc, "list index out of range");
        items[static_cast<size_t>(i)] = v;
        return;
      }
      if (obj.is(Kind::Dict)) {
        for (auto& [k, x] : obj.as<DictObj>()->items) {
          if (values_equal(k, idx)) {
            x = v;
            return;
          }
        }
        obj.as<DictObj>()->items.emplace_back(idx, v);
        return;
      }
      if (obj.is(Kind::Instance) && obj.as<InstanceObj>()->is_module()) {
        std::string key = idx.is(Kind::Str) ? str_of(idx) : std::to_string(to_int(idx, "index", target->loc));
        add_module(obj.as<InstanceObj>(), key, v, target->loc);
        return;
      }
      if (obj.is(Kind::Tensor)) fail(target->loc, "assignment into a tensor (x[...] = ...) is not supported");
      fail(target->loc, "'" + type_name(obj) + "' object does not support item assignment");
    }
    case E::Starred: fail(target->loc, "a starred assignment target must be in a list or tuple");
    default: fail(target->loc, "cannot assign to this expression");
  }
}

void Interp::delete_target(const ast::Expr* t) {
  if (t->kind == ast::ExprKind::Name) {
    frame().scope->vars.erase(t->name);
    return;
  }
  if (t->kind == ast::ExprKind::Attribute) {
    Value obj = eval(t->lhs);
    if (obj.is(Kind::Instance)) {
      auto& attrs = obj.as<InstanceObj>()->attrs;
      attrs.erase(std::remove_if(attrs.begin(), attrs.end(), [&](const AttrEntry& e) { return e.name == t->name; }),
                  attrs.end());
      return;
    }
  }
  if (t->kind == ast::ExprKind::Subscript) {
    Value obj = eval(t->lhs);
    Value idx = eval(t->rhs);
    if (obj.is(Kind::Dict)) {
      auto& items = obj.as<DictObj>()->items;
      items.erase(
          std::remove_if(items.begin(), items.end(), [&](const auto& kv) { return values_equal(kv.first, idx); }),
          items.end());
      return;
    }
    if (obj.is(Kind::List)) {
      auto& items = items_of(obj);
      int64_t i = to_int(idx, "list index", t->loc);
      if (i < 0) i += static_cast<int64_t>(items.size());
      if (i < 0 || i >= static_cast<int64_t>(items.size())) fail(t->loc, "list index out of range");
      items.erase(items.begin() + i);
      return;
    }
  }
  fail(t->loc, "this del statement is not supported");
}

// --- expressions ---

Value Interp::eval(const ast::Expr* e) {
  using E = ast::ExprKind;
  switch (e->kind) {
    case E::Name: return load_name(e->name, e->loc);
    case E::Int: return Value::integer(e->int_value);
    case E::Float: return Value::floating(e->float_value);
    case E::Str: return str(e->str_value);
    case E::Bool: return Value::boolean(e->bool_value);
    case E::None: return Value::none();
    case E::Ellipsis: return Value::ellipsis();
    case E::Tuple:
    case E::List:
    case E::Set: {
      std::vector<Value> items;
      for (const ast::Expr* x : e->elts) {
        if (x->kind == E::Starred) {
          for (const Value& v : iterate(eval(x->lhs), x->loc)) items.push_back(v);
        } else {
          items.push_back(eval(x));
        }
      }
      if (e->kind == E::Tuple) return tuple(std::move(items));
      if (e->kind == E::Set) {  // sets are lists without duplicates here: order is never observed in traces
        std::vector<Value> uniq;
        for (const Value& v : items) {
          if (std::none_of(uniq.begin(), uniq.end(), [&](const Value& u) { return values_equal(u, v); })) {
            uniq.push_back(v);
          }
        }
        items = std::move(uniq);
      }
      return list(std::move(items));
    }
    case E::Dict: {
      auto* d = heap.make<DictObj>();
      Value dv = Value::of(Kind::Dict, d);
      for (size_t i = 0; i < e->values.size(); ++i) {
        if (!e->keys[i]) {
          Value other = eval(e->values[i]);
          if (!other.is(Kind::Dict)) fail(e->values[i]->loc, "** needs a dict, got " + type_name(other));
          for (const auto& [k, v] : other.as<DictObj>()->items) {
            bool found = false;
            for (auto& [k2, v2] : d->items) {
              if (values_equal(k, k2)) {
                v2 = v;
                found = true;
              }
            }
            if (!found) d->items.emplace_back(k, v);
          }
          continue;
        }
        Value k = eval(e->keys[i]);
        Value v = eval(e->values[i]);
        bool found = false;
        for (auto& [k2, v2] : d->items) {
          if (values_equal(k, k2)) {
            v2 = v;
            found = true;
          }
        }
        if (!found) d->items.emplace_back(k, v);
      }
      return dv;
    }
    case E::BinOp: {
      Value a = eval(e->lhs);
      Value b = eval(e->rhs);
      return binary(e->op, a, b, e->loc);
    }
    case E::UnaryOp: return unary(e->op, eval(e->lhs), e->loc);
    case E::BoolOp: {
      Value v = eval(e->elts[0]);
      for (size_t i = 1; i < e->elts.size(); ++i) {
        bool t = truthy(v, e->elts[i - 1]->loc);
        if (e->op == ast::Op::And ? !t : t) return v;
        v = eval(e->elts[i]);
      }
      return v;
    }
    case E::Compare: {
      Value left = eval(e->lhs);
      if (e->cmp_ops.size() == 1) return compare(e->cmp_ops[0], left, eval(e->elts[0]), e->loc);
      for (size_t i = 0; i < e->cmp_ops.size(); ++i) {
        Value right = eval(e->elts[i]);
        Value r = compare(e->cmp_ops[i], left, right, e->loc);
        if (!truthy(r, e->loc)) return r;
        left = right;
      }
      return Value::boolean(true);
    }
    case E::IfExp: return truthy(eval(e->test), e->test->loc) ? eval(e->lhs) : eval(e->rhs);
    case E::Attribute: return get_attr(eval(e->lhs), e->name, e->loc);
    case E::Subscript: {
      Value obj = eval(e->lhs);
      return subscript(obj, eval(e->rhs), e->loc);
    }
    case E::Slice: {
      auto* s = heap.make<SliceObj>();
      if (e->lhs) s->lower = eval(e->lhs);
      if (e->rhs) s->upper = eval(e->rhs);
      if (e->step) s->step = eval(e->step);
      return Value::of(Kind::Slice, s);
    }
    case E::Call: return eval_call(e);
    case E::Starred: fail(e->loc, "a starred expression is not allowed here");
    case E::Lambda: return make_function(nullptr, e);
    case E::FString: {
      std::string out;
      for (const ast::Expr* piece : e->elts) {
        if (piece->kind == E::Str) {
          out += piece->str_value;
          continue;
        }
        Value v = eval(piece);
        out += str_of(v);
      }
      return str(out);
    }
    case E::FormattedValue: {
      Value v = eval(e->lhs);
      if (v.is(Kind::Unknown)) fail(e->lhs->loc, unsupported(v.as<UnknownObj>()->name));
      std::string spec = e->rhs ? str_of(eval(e->rhs)) : std::string();
      std::string lit = literal_repr(v);
      if (e->name == "r" || e->name == "a") return str(lit.empty() ? py_str(v) : lit);
      return str(format_value(v, spec, e->loc));
    }
    case E::ListComp:
    case E::SetComp:
    case E::GeneratorExp:
    case E::DictComp: return eval_comprehension(e);
  }
  fail(e->loc, "unsupported expression");
}

Value Interp::eval_call(const ast::Expr* e) {
  Value f = eval(e->lhs);
  CallArgs args;
  for (const ast::Arg& a : e->args) {
    Value v = eval(a.value);
    if (v.is(Kind::Unknown)) fail(a.value->loc, unsupported(v.as<UnknownObj>()->name));
    if (a.star) {
      for (const Value& x : iterate(v, a.loc)) args.pos.push_back(x);
    } else if (a.double_star) {
      if (!v.is(Kind::Dict)) fail(a.loc, "** needs a dict, got " + type_name(v));
      for (const auto& [k, x] : v.as<DictObj>()->items) args.kw.emplace_back(to_str(k, "keyword", a.loc), x);
    } else if (!a.keyword.empty()) {
      args.kw.emplace_back(a.keyword, v);
    } else {
      args.pos.push_back(v);
    }
  }
  if (f.is(Kind::Builtin) && f.as<BuiltinObj>()->name == "super" && !f.as<BuiltinObj>()->has_self) {
    auto* s = heap.make<SuperObj>();
    if (args.pos.empty()) {
      if (!frame().cls || frame().first_arg.is_none()) fail(e->loc, "super() outside a method");
      s->after = frame().cls;
      s->self = frame().first_arg;
    } else {
      if (args.pos.size() != 2 || !args.pos[0].is(Kind::Class)) fail(e->loc, "super() takes a class and an instance");
      s->after = args.pos[0].as<ClassObj>();
      s->self = args.pos[1];
    }
    return Value::of(Kind::Super, s);
  }
  return call(f, args, e->loc);
}

void Interp::comprehension_loop(const ast::Expr* e, size_t level, const std::function<void()>& body) {
  if (level == e->comps.size()) {
    body();
    return;
  }
  const ast::Comprehension& c = e->comps[level];
  Value seq = eval(c.iter);
  auto one = [&](const Value& item) {
    step(c.iter->loc);
    assign(c.target, item);
    for (const ast::Expr* cond : c.ifs) {
      if (!truthy(eval(cond), cond->loc)) return;
    }
    comprehension_loop(e, level + 1, body);
  };
  if (seq.is(Kind::Range)) {
    auto* r = seq.as<RangeObj>();
    for (int64_t k = 0, n = r->size(); k < n; ++k) one(Value::integer(r->at(k)));
  } else {
    for (const Value& item : iterate(seq, c.iter->loc)) one(item);
  }
}

Value Interp::eval_comprehension(const ast::Expr* e) {
  // A comprehension has its own scope (Python 3): its loop variables do not leak.
  auto* scope = heap.make<Scope>();
  scope->parent = frame().scope;
  Frame f = frame();
  f.scope = scope;
  frames_.push_back(f);
  PopGuard<Frame> guard{frames_};
  if (e->kind == ast::ExprKind::DictComp) {
    auto* d = heap.make<DictObj>();
    comprehension_loop(e, 0, [&] {
      Value k = eval(e->lhs);
      Value v = eval(e->rhs);
      for (auto& [k2, v2] : d->items) {
        if (values_equal(k, k2)) {
          v2 = v;
          return;
        }
      }
      d->items.emplace_back(k, v);
    });
    return Value::of(Kind::Dict, d);
  }
  std::vector<Value> items;
  comprehension_loop(e, 0, [&] { items.push_back(eval(e->lhs)); });
  return list(std::move(items));
}

Value Interp::unary(ast::Op op, const Value& v, SourceLoc loc) {
  if (op == ast::Op::Not) return Value::boolean(!truthy(v, loc));
  if (v.is(Kind::Tensor)) {
    TensorObj* t = tensor_of(v);
    Value r;
    if (op == ast::Op::Pos) return v;
    if (op == ast::Op::Neg) {
      r = t_unary(*this, Op::Neg, v, loc);
    } else {  // Invert
      if (t->dtype != DType::Bool) fail(loc, "~ on a non-bool tensor (bitwise not) is not supported");
      r = t_unary(*this, Op::LogicalNot, v, loc);
    }
    TensorObj* rt = tensor_of(r);
    if (phase == Phase::Init && !rt->node && !t->expr.empty()) {
      set_init_expr(rt, std::string(op == ast::Op::Neg ? "-" : "~") + tensor_expr(v, kPrecUnary, loc), kPrecUnary, {v});
    }
    return r;
  }
  if (v.is(Kind::Unknown)) fail(loc, unsupported(v.as<UnknownObj>()->name));
  switch (op) {
    case ast::Op::Neg:
      if (v.is(Kind::Float)) return Value::floating(-v.f);
      if (v.is_int_like()) return Value::integer(checked(v.as_int() == INT64_MIN, -v.as_int(), loc));
      break;
    case ast::Op::Pos:
      if (v.is(Kind::Float)) return v;
      if (v.is_int_like()) return Value::integer(v.as_int());
      break;
    case ast::Op::Invert:
      if (v.is_int_like()) return Value::integer(~v.as_int());
      break;
    default: break;
  }
  fail(loc, std::string("bad operand type for unary ") + ast::op_name(op) + ": '" + type_name(v) + "'");
}

Value Interp::binary(ast::Op op, const Value& a, const Value& b, SourceLoc loc) {
  using O = ast::Op;
  if (a.is(Kind::Unknown)) fail(loc, unsupported(a.as<UnknownObj>()->name));
  if (b.is(Kind::Unknown)) fail(loc, unsupported(b.as<UnknownObj>()->name));
  if (a.is(Kind::Tensor) || b.is(Kind::Tensor)) {
    Value r;
    switch (op) {
      case O::Add: r = t_binary(*this, Op::Add, a, b, loc); break;
      case O::Sub: r = t_binary(*this, Op::Sub, a, b, loc); break;
      case O::Mul: r = t_binary(*this, Op::Mul, a, b, loc); break;
      case O::Div: r = t_binary(*this, Op::Div, a, b, loc); break;
      case O::Pow: r = t_binary(*this, Op::Pow, a, b, loc); break;
      case O::Mod: r = t_remainder(*this, a, b, loc); break;
      case O::FloorDiv: r = t_floor_divide(*this, a, b, loc); break;
      case O::MatMul: r = t_matmul(*this, a, b, loc); break;
      case O::BitAnd:
      case O::BitOr:
      case O::BitXor: {
        auto is_bool = [](const Value& v) {
          return v.is(Kind::Bool) || (v.is(Kind::Tensor) && tensor_of(v)->dtype == DType::Bool);
        };
        if (!is_bool(a) || !is_bool(b)) {
          fail(loc, std::string("bitwise ") + ast::op_name(op) + " on non-bool tensors is not supported");
        }
        Op g = op == O::BitAnd ? Op::LogicalAnd : op == O::BitOr ? Op::LogicalOr : Op::Ne;
        r = t_binary(*this, g, a, b, loc);
        break;
      }
      default: fail(loc, std::string("the tensor operator ") + ast::op_name(op) + " is not supported");
    }
    TensorObj* rt = tensor_of(r);
    if (phase == Phase::Init && !rt->node) {
      // The replay expression of an operator on __init__ tensors, parenthesised by Python's precedence.
      auto has_expr = [](const Value& v) { return !v.is(Kind::Tensor) || !tensor_of(v)->expr.empty(); };
      if (has_expr(a) && has_expr(b)) {
        int p = binop_prec(op);
        bool right_assoc = op == O::Pow;
        std::string lhs = tensor_expr(a, right_assoc ? p + 1 : p, loc);
        std::string rhs = tensor_expr(b, right_assoc ? kPrecUnary : p + 1, loc);
        set_init_expr(rt, lhs + " " + ast::op_name(op) + " " + rhs, p, {a, b});
      }
    }
    return r;
  }
  if (a.is_number() && b.is_number()) {
    bool ints = a.is_int_like() && b.is_int_like();
    if (ints) {
      int64_t x = a.as_int(), y = b.as_int(), r = 0;
      bool both_bool = a.is(Kind::Bool) && b.is(Kind::Bool);
      switch (op) {
        case O::Add: {
          bool overflow = __builtin_add_overflow(x, y, &r);
          return Value::integer(checked(overflow, r, loc));
        }
        case O::Sub: {
          bool overflow = __builtin_sub_overflow(x, y, &r);
          return Value::integer(checked(overflow, r, loc));
        }
        case O::Mul: {
          bool overflow = __builtin_mul_overflow(x, y, &r);
          return Value::integer(checked(overflow, r, loc));
        }
        case O::FloorDiv:
          if (y == 0) fail(loc, "integer division by zero");
          return Value::integer(floor_div(x, y));
        case O::Mod:
          if (y == 0) fail(loc, "integer modulo by zero");
          return Value::integer(py_mod(x, y));
        case O::Div:
          if (y == 0) fail(loc, "division by zero");
          return Value::floating(static_cast<double>(x) / static_cast<double>(y));
        case O::Pow: {
          if (y < 0) return Value::floating(std::pow(static_cast<double>(x), static_cast<double>(y)));
          int64_t acc = 1, base = x;
          while (y > 0) {
            if ((y & 1) && __builtin_mul_overflow(acc, base, &acc)) checked(true, 0, loc);
            y >>= 1;
            if (y && __builtin_mul_overflow(base, base, &base)) checked(true, 0, loc);
          }
          return Value::integer(acc);
        }
        case O::BitAnd: return both_bool ? Value::boolean(x & y) : Value::integer(x & y);
        case O::BitOr: return both_bool ? Value::boolean(x | y) : Value::integer(x | y);
        case O::BitXor: return both_bool ? Value::boolean(x ^ y) : Value::integer(x ^ y);
        case O::LShift:
          if (y < 0 || y >= 63) fail(loc, "shift count out of range");
          return Value::integer(x << y);
        case O::RShift:
          if (y < 0) fail(loc, "negative shift count");
          return Value::integer(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
        default: break;
      }
    } else {
      double x = a.as_double(), y = b.as_double();
      switch (op) {
        case O::Add: return Value::floating(x + y);
        case O::Sub: return Value::floating(x - y);
        case O::Mul: return Value::floating(x * y);
        case O::Div:
          if (y == 0) fail(loc, "float division by zero");
          return Value::floating(x / y);
        case O::FloorDiv:
          if (y == 0) fail(loc, "float floor division by zero");
          return Value::floating(std::floor(x / y));
        case O::Mod:
          if (y == 0) fail(loc, "float modulo by zero");
          return Value::floating(py_fmod(x, y));
        case O::Pow:
          if (x < 0 && y != std::floor(y)) fail(loc, "a negative number to a fractional power is complex");
          return Value::floating(std::pow(x, y));
        default: break;
      }
    }
  }
  if (a.is(Kind::Str) && b.is(Kind::Str) && op == O::Add) return str(str_of(a) + str_of(b));
  if (a.is(Kind::Str) && op == O::Mod) {
    CallArgs args;
    if (b.is(Kind::Tuple))
      args.pos = items_of(b);
    else
      args.pos.push_back(b);
    return call(bound_native(a, "str.__mod__", str_methods.at("__mod__")), args, loc);
  }
  if (a.is(Kind::Str) && b.is_int_like() && op == O::Mul) {
    int64_t n = std::max<int64_t>(0, b.as_int());
    if (n > 0 && static_cast<int64_t>(str_of(a).size()) > (int64_t(1) << 24) / n) fail(loc, "string too long");
    std::string out;
    for (int64_t i = 0; i < n; ++i) out += str_of(a);
    return str(out);
  }
  if (a.is_seq() && b.kind == a.kind && op == O::Add) {
    std::vector<Value> items = items_of(a);
    for (const Value& x : items_of(b)) items.push_back(x);
    return a.is(Kind::Tuple) ? tuple(std::move(items)) : list(std::move(items));
  }
  if (op == O::Mul && ((a.is_seq() && b.is_int_like()) || (a.is_int_like() && b.is_seq()))) {
    const Value& s = a.is_seq() ? a : b;
    int64_t n = std::max<int64_t>(0, a.is_seq() ? b.as_int() : a.as_int());
    if (n > 0 && static_cast<int64_t>(items_of(s).size()) > (int64_t(1) << 22) / n) fail(loc, "sequence too long");
    std::vector<Value> items;
    for (int64_t i = 0; i < n; ++i) {
      for (const Value& x : items_of(s)) items.push_back(x);
      step(loc);
    }
    return s.is(Kind::Tuple) ? tuple(std::move(items)) : list(std::move(items));
  }
  if (op == O::BitOr && a.is(Kind::Dict) && b.is(Kind::Dict)) {
    auto* d = heap.make<DictObj>();
    d->items = a.as<DictObj>()->items;
    for (const auto& [k, v] : b.as<DictObj>()->items) {
      bool found = false;
      for (auto& [k2, v2] : d->items) {
        if (values_equal(k, k2)) {
          v2 = v;
          found = true;
        }
      }
      if (!found) d->items.emplace_back(k, v);
    }
    return Value::of(Kind::Dict, d);
  }
  fail(loc, std::string("unsupported operand types for ") + ast::op_name(op) + ": '" + type_name(a) + "' and '" +
                type_name(b) + "'");
}

namespace {

// Python's ordering of two non-tensor values: -1, 0, 1; `ok` false when they do not order.
int order(const Value& a, const Value& b, bool& ok) {
  ok = true;
  if (a.is_number() && b.is_number()) {
    if (a.is_int_like() && b.is_int_like()) return a.as_int() < b.as_int() ? -1 : a.as_int() > b.as_int() ? 1 : 0;
    double x = a.as_double(), y = b.as_double();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a.is(Kind::Str) && b.is(Kind::Str)) {
    int c = str_of(a).compare(str_of(b));
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  }
  if (a.is_seq() && a.kind == b.kind) {
    const auto& x = items_of(a);
    const auto& y = items_of(b);
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
      int c = order(x[i], y[i], ok);
      if (!ok || c != 0) return c;
    }
    return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
  }
  ok = false;
  return 0;
}

}  // namespace

Value Interp::compare(ast::Op op, const Value& a, const Value& b, SourceLoc loc) {
  using O = ast::Op;
  if (op == O::Is) return Value::boolean(values_identical(a, b));
  if (op == O::IsNot) return Value::boolean(!values_identical(a, b));
  if (op == O::In || op == O::NotIn) {
    bool found = false;
    if (b.is(Kind::Str)) {
      found = str_of(b).find(to_str(a, "in <string>", loc)) != std::string::npos;
    } else if (b.is(Kind::Dict)) {
      for (const auto& [k, v] : b.as<DictObj>()->items) found = found || values_equal(k, a);
    } else if (b.is(Kind::Range)) {
      auto* r = b.as<RangeObj>();
      if (a.is_int_like()) {
        int64_t x = a.as_int();
        found = r->step > 0 ? (x >= r->start && x < r->stop) : (x <= r->start && x > r->stop);
        found = found && (x - r->start) % r->step == 0;
      }
    } else if (b.is(Kind::Tensor)) {
      fail(loc, "`in` on a tensor depends on its data: not supported");
    } else {
      for (const Value& x : iterate(b, loc)) found = found || values_equal(x, a);
    }
    return Value::boolean(op == O::In ? found : !found);
  }
  if (a.is(Kind::Tensor) || b.is(Kind::Tensor)) {
    Op g = op == O::Eq      ? Op::Eq
           : op == O::NotEq ? Op::Ne
           : op == O::Lt    ? Op::Lt
           : op == O::LtE   ? Op::Le
           : op == O::Gt    ? Op::Gt
                            : Op::Ge;
    if ((a.is(Kind::Tensor) || a.is_number()) && (b.is(Kind::Tensor) || b.is_number())) {
      Value r = t_binary(*this, g, a, b, loc);
      TensorObj* rt = tensor_of(r);
      auto has_expr = [](const Value& v) { return !v.is(Kind::Tensor) || !tensor_of(v)->expr.empty(); };
      if (phase == Phase::Init && !rt->node && has_expr(a) && has_expr(b)) {
        set_init_expr(rt,
                      tensor_expr(a, kPrecCompare + 1, loc) + " " + ast::op_name(op) + " " +
                          tensor_expr(b, kPrecCompare + 1, loc),
                      kPrecCompare, {a, b});
      }
      return r;
    }
    // tensor == None and the like: Python's default identity comparison.
    if (op == O::Eq) return Value::boolean(false);
    if (op == O::NotEq) return Value::boolean(true);
  }
  if (op == O::Eq) return Value::boolean(values_equal(a, b));
  if (op == O::NotEq) return Value::boolean(!values_equal(a, b));
  bool ok;
  int c = order(a, b, ok);
  if (!ok) {
    fail(loc, std::string("'") + ast::op_name(op) + "' is not supported between '" + type_name(a) + "' and '" +
                  type_name(b) + "'");
  }
  switch (op) {
    case O::Lt: return Value::boolean(c < 0);
    case O::LtE: return Value::boolean(c <= 0);
    case O::Gt: return Value::boolean(c > 0);
    default: return Value::boolean(c >= 0);
  }
}

bool Interp::truthy(const Value& v, SourceLoc loc) {
  switch (v.kind) {
    case Kind::None: return false;
    case Kind::Bool: return v.b;
    case Kind::Int: return v.i != 0;
    case Kind::Float: return v.f != 0.0;
    case Kind::Str: return !str_of(v).empty();
    case Kind::Tuple:
    case Kind::List: return !items_of(v).empty();
    case Kind::Dict: return !v.as<DictObj>()->items.empty();
    case Kind::Range: return v.as<RangeObj>()->size() > 0;
    case Kind::Tensor:
      fail(loc, "the truth value of a tensor depends on its data: data-dependent control flow is not supported");
    case Kind::Unknown: fail(loc, unsupported(v.as<UnknownObj>()->name));
    default: return true;
  }
}

std::vector<Value> Interp::iterate(const Value& v, SourceLoc loc) {
  switch (v.kind) {
    case Kind::Tuple:
    case Kind::List: return items_of(v);
    case Kind::Str: {
      std::vector<Value> out;
      for (char c : str_of(v)) out.push_back(str(std::string(1, c)));
      return out;
    }
    case Kind::Dict: {
      std::vector<Value> out;
      for (const auto& [k, x] : v.as<DictObj>()->items) out.push_back(k);
      return out;
    }
    case Kind::Range: {
      auto* r = v.as<RangeObj>();
      std::vector<Value> out;
      for (int64_t k = 0, n = r->size(); k < n; ++k) {
        step(loc);
        out.push_back(Value::integer(r->at(k)));
      }
      return out;
    }
    case Kind::Instance: {
      auto* inst = v.as<InstanceObj>();
      ModuleKind mk = inst->cls->module;
      if (mk == ModuleKind::Sequential || mk == ModuleKind::ModuleList || mk == ModuleKind::ModuleDict) {
        std::vector<Value> out;
        for (const AttrEntry& e : inst->attrs) {
          if (e.slot == Slot::Module) out.push_back(mk == ModuleKind::ModuleDict ? str(e.name) : e.value);
        }
        return out;
      }
      break;
    }
    case Kind::Tensor: fail(loc, "iterating over a tensor is not supported");
    case Kind::Unknown: fail(loc, unsupported(v.as<UnknownObj>()->name));
    default: break;
  }
  fail(loc, "'" + type_name(v) + "' object is not iterable");
}

Value Interp::subscript(const Value& obj, const Value& index, SourceLoc loc) {
  auto norm_index = [&](int64_t i, size_t n, const char* what) {
    int64_t size = static_cast<int64_t>(n);
    if (i < 0) i += size;
    if (i < 0 || i >= size) fail(loc, std::string(what) + " index out of range");
    return static_cast<size_t>(i);
  };
  // Python slice semantics over n elements: the indices it selects.
  auto slice_indices = [&](const SliceObj* s, size_t n) {
    int64_t size = static_cast<int64_t>(n);
    int64_t st = s->step.is_none() ? 1 : to_int(s->step, "slice step", loc);
    if (st == 0) fail(loc, "slice step cannot be zero");
    auto clampi = [&](const Value& v, int64_t dflt) {
      if (v.is_none()) return dflt;
      int64_t i = to_int(v, "slice index", loc);
      if (i < 0) i += size;
      if (st > 0) return std::clamp<int64_t>(i, 0, size);
      return std::clamp<int64_t>(i, -1, size - 1);
    };
    int64_t lo = clampi(s->lower, st > 0 ? 0 : size - 1);
    int64_t hi = clampi(s->upper, st > 0 ? size : -1);
    std::vector<size_t> out;
    for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) out.push_back(static_cast<size_t>(i));
    return out;
  };
  switch (obj.kind) {
    case Kind::Tuple:
    case Kind::List: {
      const auto& items = items_of(obj);
      if (index.is(Kind::Slice)) {
        std::vector<Value> out;
        for (size_t i : slice_indices(index.as<SliceObj>(), items.size())) out.push_back(items[i]);
        return obj.is(Kind::Tuple) ? tuple(std::move(out)) : list(std::move(out));
      }
      return items[norm_index(to_int(index, "index", loc), items.size(), obj.is(Kind::Tuple) ? "tuple" : "list")];
    }
    case Kind::Str: {
      const std::string& s = str_of(obj);
      if (index.is(Kind::Slice)) {
        std::string out;
        for (size_t i : slice_indices(index.as<SliceObj>(), s.size())) out += s[i];
        return str(out);
      }
      return str(std::string(1, s[norm_index(to_int(index, "index", loc), s.size(), "string")]));
    }
    case Kind::Range: {
      auto* r = obj.as<RangeObj>();
      size_t i = norm_index(to_int(index, "index", loc), static_cast<size_t>(r->size()), "range");
      return Value::integer(r->at(static_cast<int64_t>(i)));
    }
    case Kind::Dict:
      for (const auto& [k, v] : obj.as<DictObj>()->items) {
        if (values_equal(k, index)) return v;
      }
      fail(loc, "KeyError: " + py_str(index));
    case Kind::Tensor: {
      Value r = t_index(*this, obj, index, loc);
      TensorObj* rt = tensor_of(r);
      if (phase == Phase::Init && !rt->node && rt != tensor_of(obj) && !tensor_of(obj)->expr.empty()) {
        std::vector<Value> parts = index.is(Kind::Tuple) ? items_of(index) : std::vector<Value>{index};
        std::string text;
        for (size_t i = 0; i < parts.size(); ++i) {
          const Value& p = parts[i];
          std::string item;
          if (p.is(Kind::Slice)) {
            auto* sl = p.as<SliceObj>();
            item = (sl->lower.is_none() ? "" : render_arg(sl->lower, loc)) + ":" +
                   (sl->upper.is_none() ? "" : render_arg(sl->upper, loc));
            if (!sl->step.is_none()) item += ":" + render_arg(sl->step, loc);
          } else {
            item = render_arg(p, loc);
          }
          text += (i ? ", " : "") + item;
        }
        set_init_expr(rt, tensor_expr(obj, kPrecPostfix, loc) + "[" + text + "]", kPrecPostfix, {obj});
        Value base = obj;
        make_view(rt, tensor_of(obj), false,
                  [this, base, text, loc] { return tensor_expr(base, kPrecPostfix, loc) + "[" + text + "]"; });
      }
      return r;
    }
    case Kind::Instance: {
      auto* inst = obj.as<InstanceObj>();
      ModuleKind mk = inst->cls->module;
      if (mk == ModuleKind::ModuleDict) {
        AttrEntry* e = inst->find(to_str(index, "nn.ModuleDict key", loc));
        if (!e || e->slot != Slot::Module) fail(loc, "KeyError: " + py_str(index));
        return e->value;
      }
      if (mk == ModuleKind::Sequential || mk == ModuleKind::ModuleList) {
        std::vector<Value> children = iterate(obj, loc);
        if (index.is(Kind::Slice)) {
          std::vector<Value> out;
          for (size_t i : slice_indices(index.as<SliceObj>(), children.size())) out.push_back(children[i]);
          return list(std::move(out));
        }
        return children[norm_index(to_int(index, "index", loc), children.size(), inst->cls->name.c_str())];
      }
      break;
    }
    case Kind::Unknown: fail(loc, unsupported(obj.as<UnknownObj>()->name));
    default: break;
  }
  fail(loc, "'" + type_name(obj) + "' object is not subscriptable");
}

bool Interp::isinstance(const Value& v, const Value& cls, SourceLoc loc) {
  if (cls.is(Kind::Tuple)) {
    for (const Value& c : items_of(cls)) {
      if (isinstance(v, c, loc)) return true;
    }
    return false;
  }
  if (cls.is(Kind::Unknown)) fail(loc, unsupported(cls.as<UnknownObj>()->name));
  if (!cls.is(Kind::Class)) fail(loc, "isinstance() arg 2 must be a class or a tuple of classes");
  ClassObj* c = cls.as<ClassObj>();
  switch (v.kind) {
    case Kind::Bool: return c == builtin_class("bool") || c == builtin_class("int");
    case Kind::Int: return c == builtin_class("int");
    case Kind::Float: return c == builtin_class("float");
    case Kind::Str: return c == builtin_class("str");
    case Kind::Tuple: return c == builtin_class("tuple");
    case Kind::List: return c == builtin_class("list");
    case Kind::Dict: return c == builtin_class("dict");
    case Kind::Tensor: return c == tensor_class || (c == parameter_class && tensor_of(v)->is_param);
    case Kind::Instance: {
      const auto& mro = v.as<InstanceObj>()->cls->mro;
      return std::find(mro.begin(), mro.end(), c) != mro.end();
    }
    default: return false;
  }
}

// --- calls ---

Value Interp::call(const Value& f, CallArgs& args, SourceLoc loc) {
  switch (f.kind) {
    case Kind::Function: return call_function(f.as<FunctionObj>(), args, loc);
    case Kind::Method: {
      auto* m = f.as<MethodObj>();
      if (m->func.is(Kind::Function)) return call_function(m->func.as<FunctionObj>(), args, loc, &m->self);
      args.pos.insert(args.pos.begin(), m->self);
      return call(m->func, args, loc);
    }
    case Kind::Builtin: {
      auto* b = f.as<BuiltinObj>();
      bool replayable = phase == Phase::Init && !b->replay.empty();
      CallArgs original;
      if (replayable) original = args;
      // (a builtin's results take their layout from the operands it traces, never from an earlier call's)
      layout_source = nullptr;
      strided_operands = false;
      Value r = b->fn(*this, b->self, args, loc);
      if (replayable) {
        // A tensor computed in __init__ by a torch function or Tensor method is replayed as the same call.
        auto lazy = [](const Value& v) {
          return v.is(Kind::Tensor) && !tensor_of(v)->node && tensor_of(v)->expr.empty();
        };
        bool any = lazy(r) || (r.is(Kind::Tuple) && std::any_of(items_of(r).begin(), items_of(r).end(), lazy));
        if (any) {
          bool ok = true;
          auto renderable = [&](const Value& v) { return !v.is(Kind::Tensor) || !tensor_of(v)->expr.empty(); };
          for (const Value& v : original.pos) ok = ok && renderable(v);
          for (const auto& [k, v] : original.kw) ok = ok && renderable(v);
          if (b->has_self) ok = ok && renderable(b->self);
          if (ok) {
            std::string callee = b->replay[0] == '.' ? tensor_expr(b->self, kPrecPostfix, loc) + b->replay : b->replay;
            std::string text = render_call(callee, original, loc);
            std::vector<Value> operands = original.pos;
            for (const auto& [k, v] : original.kw) operands.push_back(v);
            if (b->has_self) operands.insert(operands.begin(), b->self);
            auto set = [&](const Value& v, const std::string& e) {
              if (lazy(v)) set_init_expr(tensor_of(v), e, kPrecPostfix, operands);
            };
            if (r.is(Kind::Tensor)) {
              set(r, text);
              auto first =
                  std::find_if(operands.begin(), operands.end(), [](const Value& v) { return v.is(Kind::Tensor); });
              if (b->is_view && first != operands.end() && tensor_of(*first) != tensor_of(r)) {
                std::string replay = b->replay;
                Value self = b->self;
                make_view(tensor_of(r), tensor_of(*first), false, [this, replay, self, original, loc] {
                  std::string callee = replay[0] == '.' ? tensor_expr(self, kPrecPostfix, loc) + replay : replay;
                  return render_call(callee, original, loc);
                });
              }
            } else {
              for (size_t i = 0; i < items_of(r).size(); ++i) set(items_of(r)[i], text + "[" + std::to_string(i) + "]");
            }
          }
        }
      }
      return r;
    }
    case Kind::Class: return call_class(f.as<ClassObj>(), args, loc);
    case Kind::Instance: {
      auto* inst = f.as<InstanceObj>();
      if (inst->cls->builtin && inst->cls->module != ModuleKind::None)
        return call_builtin_module(*this, inst, args, loc);
      const Value* fwd = inst->cls->find(inst->is_module() ? "forward" : "__call__");
      if (!fwd || !fwd->is(Kind::Function)) {
        fail(loc, "'" + inst->cls->name + "' object is not callable" +
                      (inst->is_module() ? std::string(" (it has no forward method)") : std::string()));
      }
      return call_function(fwd->as<FunctionObj>(), args, loc, &f);
    }
    case Kind::Unknown: fail(loc, unsupported(f.as<UnknownObj>()->name));
    case Kind::Namespace: {
      auto* ns = f.as<NamespaceObj>();
      if (ns->opaque) {
        fail(loc, ns->display + " is not supported: '" + ns->qualname.substr(0, ns->qualname.find('.')) +
                      "' is imported but not traced (only torch, torch.nn, torch.nn.functional and math are)");
      }
      fail(loc, "module '" + ns->display + "' is not callable");
    }
    default: fail(loc, "'" + type_name(f) + "' object is not callable");
  }
}

Value Interp::call_method(const Value& obj, const std::string& name, CallArgs args, SourceLoc loc) {
  return call(get_attr(obj, name, loc), args, loc);
}

Value Interp::call_function(FunctionObj* fn, CallArgs& args, SourceLoc loc, const Value* self) {
  if (++depth_ > kMaxDepth) fail(loc, "calls nested deeper than " + std::to_string(kMaxDepth) + ": endless recursion?");
  struct DepthGuard {
    int& d;
    ~DepthGuard() { --d; }
  } depth_guard{depth_};
  auto* scope = heap.make<Scope>();
  scope->parent = fn->closure;
  const auto& params = *fn->params;
  std::vector<Value> pos;
  pos.reserve(args.pos.size() + 1);
  if (self) pos.push_back(*self);
  pos.insert(pos.end(), args.pos.begin(), args.pos.end());
  std::vector<char> bound(params.size(), 0);
  size_t pi = 0;
  int var_args = -1, kw_args = -1;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].kind == ast::Param::Kind::VarArgs) var_args = static_cast<int>(i);
    if (params[i].kind == ast::Param::Kind::KwArgs) kw_args = static_cast<int>(i);
  }
  size_t n_positional = 0;
  while (n_positional < params.size() && params[n_positional].kind == ast::Param::Kind::Normal) ++n_positional;
  std::vector<Value> extra;
  for (const Value& v : pos) {
    if (pi < n_positional) {
      scope->vars[params[pi].name] = v;
      bound[pi++] = 1;
    } else if (var_args >= 0) {
      extra.push_back(v);
    } else {
      size_t given = pos.size() - (self ? 1 : 0), takes = n_positional - (self ? 1 : 0);
      fail(loc, fn->name + "() takes " + std::to_string(takes) + " positional argument" + (takes == 1 ? "" : "s") +
                    " but " + std::to_string(given) + (given == 1 ? " was" : " were") + " given");
    }
  }
  if (var_args >= 0) {
    scope->vars[params[static_cast<size_t>(var_args)].name] = tuple(std::move(extra));
    bound[static_cast<size_t>(var_args)] = 1;
  }
  DictObj* kwd = nullptr;
  if (kw_args >= 0) {
    kwd = heap.make<DictObj>();
    scope->vars[params[static_cast<size_t>(kw_args)].name] = Value::of(Kind::Dict, kwd);
    bound[static_cast<size_t>(kw_args)] = 1;
  }
  for (const auto& [k, v] : args.kw) {
    size_t i = 0;
    while (i < params.size() && !(params[i].name == k && (params[i].kind == ast::Param::Kind::Normal ||
                                                          params[i].kind == ast::Param::Kind::KwOnly))) {
      ++i;
    }
    if (i == params.size()) {
      if (!kwd) fail(loc, fn->name + "() got an unexpected keyword argument '" + k + "'");
      kwd->items.emplace_back(str(k), v);
      continue;
    }
    if (bound[i]) fail(loc, fn->name + "() got multiple values for argument '" + k + "'");
    scope->vars[k] = v;
    bound[i] = 1;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (bound[i]) continue;
    if (!fn->has_default[i]) fail(loc, fn->name + "() missing required argument '" + params[i].name + "'");
    scope->vars[params[i].name] = fn->defaults[i];
  }
  Frame f{scope, fn->owner, pos.empty() ? Value::none() : pos[0]};
  frames_.push_back(f);
  PopGuard<Frame> guard{frames_};
  if (fn->lambda_body) return eval(fn->lambda_body);
  if (exec_block(*fn->body) == Flow::Return) return frame().ret;
  return Value::none();
}

Value Interp::call_class(ClassObj* cls, CallArgs& args, SourceLoc loc) {
  if (cls->ctor) return cls->ctor(*this, Value::of(Kind::Class, cls), args, loc);
  if (cls->builtin && cls->module != ModuleKind::None) return construct_builtin_module(*this, cls, args, loc);
  if (cls->builtin) fail(loc, "creating a " + cls->name + " object is not supported");
  auto* inst = heap.make<InstanceObj>();
  inst->cls = cls;
  Value self = Value::of(Kind::Instance, inst);
  if (cls->module != ModuleKind::None) register_module(inst);
  const Value* init = cls->find("__init__");
  if (init && init->is(Kind::Function)) {
    call_function(init->as<FunctionObj>(), args, loc, &self);
  } else if (!args.pos.empty() || !args.kw.empty()) {
    fail(loc, cls->name + "() takes no arguments");
  }
  return self;
}

// --- attributes ---

Value Interp::class_attr(ClassObj* cls, const std::string& name, const Value& self, SourceLoc loc, bool* found) {
  *found = true;
  if (name == "__name__") return str(cls->name);
  if (const Value* v = cls->find(name)) {
    if (v->is(Kind::Function)) {
      auto* fn = v->as<FunctionObj>();
      if (fn->is_static) return *v;
      Value recv = fn->is_classmethod
                       ? Value::of(Kind::Class, self.is(Kind::Instance) ? self.as<InstanceObj>()->cls : cls)
                       : self;
      if (recv.is_none()) return *v;  // Class.method: a plain function
      if (fn->is_property) {
        CallArgs none;
        return call_function(fn, none, loc, &recv);
      }
      auto* m = heap.make<MethodObj>();
      m->self = recv;
      m->func = *v;
      return Value::of(Kind::Method, m);
    }
    return *v;
  }
  if (cls->module != ModuleKind::None) {
    // nn.Module's own methods (register_buffer, parameters, ...): bound when looked up on an instance,
    // taking the instance as first argument when looked up on the class (nn.Module.__init__(self)).
    auto it = module_methods.find(name);
    if (it != module_methods.end()) {
      if (!self.is_none()) return bound_native(self, "Module." + name, it->second);
      BuiltinFn fn = it->second;
      return native("Module." + name, [fn](Interp& in, const Value&, CallArgs& a, SourceLoc l) {
        if (a.pos.empty()) fail(l, "nn.Module method called without an instance");
        Value s = a.pos[0];
        a.pos.erase(a.pos.begin());
        return fn(in, s, a, l);
      });
    }
  }
  *found = false;
  return Value::none();
}

Value Interp::instance_attr(InstanceObj* inst, const Value& self, const std::string& name, SourceLoc loc, bool* found) {
  *found = true;
  if (AttrEntry* e = inst->find(name)) {
    if (phase == Phase::Forward && (e->slot == Slot::Param || e->slot == Slot::Buffer)) {
      return forward_view(e->value, name, loc);
    }
    return e->value;
  }
  if (name == "__class__") return Value::of(Kind::Class, inst->cls);
  return class_attr(inst->cls, name, self, loc, found);
}

Value Interp::get_attr(const Value& obj, const std::string& name, SourceLoc loc) {
  bool found = false;
  switch (obj.kind) {
    case Kind::Instance: {
      Value v = instance_attr(obj.as<InstanceObj>(), obj, name, loc, &found);
      if (found) return v;
      fail(loc, "'" + obj.as<InstanceObj>()->cls->name + "' object has no attribute '" + name + "'");
    }
    case Kind::Class: {
      Value v = class_attr(obj.as<ClassObj>(), name, Value::none(), loc, &found);
      if (found) return v;
      if (obj.as<ClassObj>()->builtin) return unknown("torch.nn." + obj.as<ClassObj>()->name + "." + name);
      fail(loc, "class '" + obj.as<ClassObj>()->name + "' has no attribute '" + name + "'");
    }
    case Kind::Super: {
      auto* s = obj.as<SuperObj>();
      ClassObj* cls = s->self.is(Kind::Instance) ? s->self.as<InstanceObj>()->cls : s->self.as<ClassObj>();
      const auto& mro = cls->mro;
      auto it = std::find(mro.begin(), mro.end(), s->after);
      if (it == mro.end()) fail(loc, "super(): the instance is not of that class");
      for (++it; it != mro.end(); ++it) {
        for (const auto& [k, v] : (*it)->attrs) {
          if (k != name) continue;
          if (v.is(Kind::Function)) {
            auto* m = heap.make<MethodObj>();
            m->self = s->self;
            m->func = v;
            return Value::of(Kind::Method, m);
          }
          return v;
        }
        if ((*it)->builtin && (*it)->module != ModuleKind::None) {
          auto mm = module_methods.find(name);
          if (mm != module_methods.end()) return bound_native(s->self, "Module." + name, mm->second);
        }
      }
      if (name == "__init__") {  // object.__init__
        return native("object.__init__", [](Interp&, const Value&, CallArgs&, SourceLoc) { return Value::none(); });
      }
      fail(loc, "super() object has no attribute '" + name + "'");
    }
    case Kind::Namespace: {
      auto* ns = obj.as<NamespaceObj>();
      if (ns->opaque) {
        std::string root = ns->qualname.substr(0, ns->qualname.find('.'));
        fail(loc, ns->display + "." + name + " is not supported: '" + root +
                      "' is imported but not traced (only torch, torch.nn, torch.nn.functional and math are)");
      }
      std::string q = ns->qualname + "." + name;
      auto it = registry.find(q);
      if (it != registry.end()) return it->second;
      return unknown(q);
    }
    case Kind::Unknown: return unknown(obj.as<UnknownObj>()->name + "." + name);
    case Kind::Tensor: return tensor_attr(*this, obj, name, loc);
    case Kind::Str: {
      auto it = str_methods.find(name);
      if (it != str_methods.end()) return bound_native(obj, "str." + name, it->second);
      break;
    }
    case Kind::List: {
      auto it = list_methods.find(name);
      if (it != list_methods.end()) return bound_native(obj, "list." + name, it->second);
      break;
    }
    case Kind::Tuple: {
      const auto& names = obj.as<SeqObj>()->field_names;
      for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == name) return items_of(obj)[i];
      }
      if (name == "index" || name == "count") return bound_native(obj, "tuple." + name, list_methods.at(name));
      break;
    }
    case Kind::Dict: {
      auto it = dict_methods.find(name);
      if (it != dict_methods.end()) return bound_native(obj, "dict." + name, it->second);
      break;
    }
    case Kind::DType:
      if (name == "is_floating_point") return Value::boolean(is_floating(obj.dtype));
      if (name == "itemsize") return Value::integer(dtype_size(obj.dtype));
      break;
    case Kind::Device:
      if (name == "type") {
        const std::string& s = obj.as<DeviceObj>()->spec;
        return str(s.substr(0, s.find(':')));
      }
      break;
    case Kind::Function:
      if (name == "__name__") return str(obj.as<FunctionObj>()->name);
      break;
    case Kind::Method: return get_attr(obj.as<MethodObj>()->func, name, loc);
    default: break;
  }
  fail(loc, "'" + type_name(obj) + "' object has no attribute '" + name + "'");
}

bool Interp::has_attr(const Value& obj, const std::string& name) {
  try {
    Value v = get_attr(obj, name, {});
    return !v.is(Kind::Unknown);
  } catch (const UserError&) {
    return false;
  }
}

void Interp::set_attr(const Value& obj, const std::string& name, const Value& v, SourceLoc loc) {
  switch (obj.kind) {
    case Kind::Instance: {
      auto* inst = obj.as<InstanceObj>();
      if (inst->is_module()) {
        module_setattr(inst, name, v, loc);
        return;
      }
      if (AttrEntry* e = inst->find(name)) {
        e->value = v;
      } else {
        inst->attrs.push_back({name, Slot::Plain, true, v});
      }
      return;
    }
    case Kind::Class: {
      auto& attrs = obj.as<ClassObj>()->attrs;
      for (auto& [k, x] : attrs) {
        if (k == name) {
          x = v;
          return;
        }
      }
      attrs.emplace_back(name, v);
      return;
    }
    case Kind::Tensor: fail(loc, "setting the attribute '" + name + "' of a tensor is not supported");
    case Kind::Namespace:
    case Kind::Unknown: fail(loc, "setting " + display_name(type_name(obj)) + "." + name + " is not supported");
    default: fail(loc, "'" + type_name(obj) + "' object attribute '" + name + "' cannot be set");
  }
}

}  // namespace tz::tracer
