// Tensors computed in __init__: their replay expressions (Python text with Python's precedence), the
// named tensors and storage they read, and what an in-place change of one of them must write out first.
#include <algorithm>

#include "trace/interp.h"

namespace tz::tracer {

std::string Interp::tensor_expr(const Value& v, int prec, SourceLoc loc) {
  if (v.is(Kind::Tensor)) {
    TensorObj* t = tensor_of(v);
    if (t->expr.empty()) {
      fail(loc, "this tensor was created outside __init__ (at module level?) and cannot be replayed in ModelNew");
    }
    return t->prec < prec ? "(" + t->expr + ")" : t->expr;
  }
  std::string r = render_arg(v, loc);
  // A negative literal is a unary minus in Python's grammar: (-1) ** 2.
  if (!r.empty() && r[0] == '-' && prec > kPrecUnary) return "(" + r + ")";
  return r;
}

void Interp::set_init_expr(TensorObj* t, std::string expr, int prec, const std::vector<Value>& operands) {
  t->expr = std::move(expr);
  t->prec = prec;
  t->phase = Phase::Init;
  std::function<void(const Value&)> read = [&](const Value& v) {
    if (v.is_seq()) {
      for (const Value& x : items_of(v)) read(x);
      return;
    }
    if (!v.is(Kind::Tensor)) return;
    TensorObj* o = tensor_of(v);
    if (o->lvalue) t->deps.push_back(o);
    t->deps.insert(t->deps.end(), o->deps.begin(), o->deps.end());
  };
  for (const Value& v : operands) read(v);
  if (!t->deps.empty()) lazy_init.push_back(t);
}

void Interp::make_view(TensorObj* t, TensorObj* base, bool identity, std::function<std::string()> rerender) {
  t->base = base;
  t->identity_view = identity;
  t->rerender = std::move(rerender);
  base->views.push_back(t);
}

void Interp::before_mutation(TensorObj* t, SourceLoc loc) {
  TensorObj* root = t;
  while (root->base) root = root->base;
  std::vector<TensorObj*> storage;  // the root and all its views, parents before children
  std::function<void(TensorObj*)> collect = [&](TensorObj* v) {
    storage.push_back(v);
    for (TensorObj* c : v->views) collect(c);
  };
  collect(root);
  if (!root->lvalue) {
    // The storage has no name yet. If a view of it was already written out (registered as a parameter,
    // say), the storage is reached through that view; otherwise the root gets a temporary.
    TensorObj* named = nullptr;
    for (TensorObj* v : storage) {
      if (v->lvalue && !named) named = v;
    }
    bool identity_chain = true;
    for (TensorObj* v = t; v != root; v = v->base) identity_chain = identity_chain && v->identity_view;
    if (!named && t != root && identity_chain) {
      // Name the changed tensor, or the parameter it is an alias of (`_t0 = nn.Parameter(...)`), and
      // reach the storage through it.
      named = t;
      for (TensorObj* v = t; v != root; v = v->base) {
        if (v->is_param) named = v;
      }
      materialize(named, loc);
    }
    if (named) {
      for (TensorObj* v = named; v != root; v = v->base) {
        if (!v->identity_view) {
          fail(loc,
               "an in-place change of a tensor after a view of it was stored is not supported in __init__ "
               "(change it before taking the view)");
        }
      }
      if (root->expr.empty()) fail(loc, "this tensor cannot be replayed in ModelNew");
      root->expr = named->expr + (named->is_param ? ".data" : "");
      root->prec = kPrecPostfix;
      root->lvalue = true;
    } else {
      materialize(root, loc);
    }
    for (TensorObj* v : storage) {
      if (v != root && !v->lvalue && v->rerender) {
        v->expr = v->rerender();
        v->prec = kPrecPostfix;
      }
    }
  }
  // Lazy expressions that read this storage are evaluated before it changes.
  for (TensorObj* l : lazy_init) {
    if (l->lvalue || std::find(storage.begin(), storage.end(), l) != storage.end()) continue;
    bool reads = std::any_of(l->deps.begin(), l->deps.end(), [&](TensorObj* d) {
      return std::find(storage.begin(), storage.end(), d) != storage.end();
    });
    if (reads) materialize(l, loc);
  }
  // `t` itself now reads the named storage: its own expression (a view of it, or the name) is the target.
}

void Interp::materialize(TensorObj* t, SourceLoc loc) {
  if (t->lvalue) return;
  if (t->expr.empty()) fail(loc, "this tensor was created outside __init__ and cannot be replayed in ModelNew");
  std::string name = replay.temp();
  replay.text(name + " = " + t->expr);
  t->expr = name;
  t->prec = kPrecAtom;
  t->lvalue = true;
}

std::string Interp::render_arg(const Value& v, SourceLoc loc) {
  switch (v.kind) {
    case Kind::Tensor: return tensor_expr(v, 0, loc);
    case Kind::Device: return "torch.device(" + literal_repr(str(v.as<DeviceObj>()->spec)) + ")";
    case Kind::Tuple:
    case Kind::List: {
      const auto& items = items_of(v);
      std::string out = v.is(Kind::Tuple) ? "(" : "[";
      for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + render_arg(items[i], loc);
      if (v.is(Kind::Tuple) && items.size() == 1) out += ",";
      return out + (v.is(Kind::Tuple) ? ")" : "]");
    }
    default: {
      std::string r = literal_repr(v);
      if (r.empty()) fail(loc, "a " + type_name(v) + " argument cannot be written in ModelNew's init replay");
      return r;
    }
  }
}

std::string Interp::render_call(const std::string& callee, const CallArgs& args, SourceLoc loc) {
  std::string out = callee + "(";
  bool first = true;
  for (const Value& v : args.pos) {
    out += (first ? "" : ", ") + render_arg(v, loc);
    first = false;
  }
  for (const auto& [k, v] : args.kw) {
    out += (first ? "" : ", ") + k + "=" + render_arg(v, loc);
    first = false;
  }
  return out + ")";
}

}  // namespace tz::tracer
