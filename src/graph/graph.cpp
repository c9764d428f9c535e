// Graph construction (interning, typing rules per op), the text dump and the verifier.
#include "graph/graph.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>

namespace tz {

namespace {

struct OpInfo {
  const char* name;
  OpKind kind;
};

constexpr OpInfo kOps[] = {
#define OP(name, text, kind) {text, OpKind::kind},
#include "graph/ops.def"
#undef OP
};

std::string intern_key(Op op, DType dtype, const Shape& shape, const std::vector<const Node*>& src,
                       const Attr& attr) {
  std::ostringstream os;
  os << static_cast<int>(op) << '|' << static_cast<int>(dtype) << '|';
  for (auto d : shape) os << d << ',';
  os << '|';
  for (auto* s : src) os << s->id << ',';
  os << '|';
  for (auto v : attr.ints) os << v << ',';
  os << '|';
  for (auto v : attr.ints2) os << v << ',';
  // Full precision: two constants that differ in the 7th digit must not intern to one node.
  os.precision(17);
  os << '|' << attr.f << '|';
  for (auto v : attr.floats) os << v << ',';
  os << '|' << attr.str;
  return os.str();
}

bool is_comparison(Op op) {
  return op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
}

}  // namespace

const char* op_name(Op op) { return kOps[static_cast<int>(op)].name; }
OpKind op_kind(Op op) { return kOps[static_cast<int>(op)].kind; }

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

std::string shape_str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

Shape contiguous_strides(const Shape& s) {
  Shape st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * std::max<int64_t>(s[i + 1], 1);
  return st;
}

bool broadcast_shapes(const Shape& a, const Shape& b, Shape& out) {
  size_t r = std::max(a.size(), b.size());
  out.assign(r, 1);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

const Node* Graph::make(Op op, DType dtype, Shape shape, std::vector<const Node*> src, Attr attr,
                        SourceLoc loc) {
  std::string key = intern_key(op, dtype, shape, src, attr);
  auto it = interned_.find(key);
  if (it != interned_.end()) return it->second;
  auto node = std::make_unique<Node>();
  node->id = static_cast<int>(nodes_.size());
  node->op = op;
  node->dtype = dtype;
  node->shape = std::move(shape);
  node->src = std::move(src);
  node->attr = std::move(attr);
  node->loc = loc;
  const Node* result = node.get();
  nodes_.push_back(std::move(node));
  interned_.emplace(std::move(key), result);
  return result;
}

const Node* Graph::input(int index) {
  TZ_ASSERT(index >= 0 && index < static_cast<int>(inputs.size()), "input index out of range");
  Attr a;
  a.ints = {index};
  return make(Op::Input, inputs[index].dtype, inputs[index].shape, {}, a);
}

const ParamSpec* Graph::find_param(const std::string& path) const {
  for (const auto& p : params) {
    if (p.path == path) return &p;
  }
  return nullptr;
}

const Node* Graph::param(const std::string& path) {
  const ParamSpec* p = find_param(path);
  TZ_ASSERT(p != nullptr, "unknown parameter " + path);
  Attr a;
  a.str = path;
  return make(Op::Param, p->dtype, p->shape, {}, a);
}

const Node* Graph::constant(double value, DType dtype) {
  Attr a;
  a.f = value;
  return make(Op::Const, dtype, {}, {}, a);
}

const Node* Graph::unary(Op op, const Node* x, SourceLoc loc) {
  TZ_ASSERT(op_kind(op) == OpKind::Unary && op != Op::Cast, "unary() needs a unary op");
  DType t = x->dtype;
  if (op == Op::LogicalNot) t = DType::Bool;
  return make(op, t, x->shape, {x}, {}, loc);
}

const Node* Graph::cast(const Node* x, DType to, SourceLoc loc) {
  if (x->dtype == to) return x;
  return make(Op::Cast, to, x->shape, {x}, {}, loc);
}

const Node* Graph::binary(Op op, const Node* a, const Node* b, SourceLoc loc) {
  TZ_ASSERT(op_kind(op) == OpKind::Binary, "binary() needs a binary op");
  Shape out;
  TZ_ASSERT(broadcast_shapes(a->shape, b->shape, out), "operands do not broadcast");
  DType common = promote(a->dtype, b->dtype);
  a = cast(a, common, loc);
  b = cast(b, common, loc);
  DType result = common;
  if (is_comparison(op) || op == Op::LogicalAnd || op == Op::LogicalOr) result = DType::Bool;
  return make(op, result, out, {a, b}, {}, loc);
}

const Node* Graph::where(const Node* c, const Node* a, const Node* b, SourceLoc loc) {
  Shape ab, out;
  TZ_ASSERT(broadcast_shapes(a->shape, b->shape, ab) && broadcast_shapes(c->shape, ab, out),
            "where operands do not broadcast");
  DType common = promote(a->dtype, b->dtype);
  return make(Op::Where, common, out, {cast(c, DType::Bool, loc), cast(a, common, loc), cast(b, common, loc)},
              {}, loc);
}

const Node* Graph::reduce(Op op, const Node* x, std::vector<int64_t> axes, bool keepdim, SourceLoc loc,
                          std::string str) {
  TZ_ASSERT(op_kind(op) == OpKind::Reduce || op == Op::Mean, "reduce() needs a reduction");
  std::sort(axes.begin(), axes.end());
  Shape out;
  for (int i = 0; i < x->rank(); ++i) {
    bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!reduced) out.push_back(x->shape[i]);
    else if (keepdim) out.push_back(1);
  }
  DType t = x->dtype;
  if (op == Op::ArgMax || op == Op::ArgMin) t = DType::Int64;
  if ((op == Op::Sum || op == Op::Prod) && (t == DType::Bool || t == DType::Int32)) t = DType::Int64;
  Attr a;
  a.ints = axes;
  a.ints2 = {keepdim ? 1 : 0};
  a.str = std::move(str);
  return make(op, t, out, {x}, a, loc);
}

const Node* Graph::scan(Op op, const Node* x, int64_t axis, bool reverse, SourceLoc loc) {
  TZ_ASSERT(op_kind(op) == OpKind::Scan, "scan() needs a scan op");
  TZ_ASSERT(axis >= 0 && axis < x->rank(), "scan axis out of range");
  DType t = is_floating(x->dtype) ? x->dtype : DType::Int64;
  Attr a;
  a.ints = {axis, reverse ? 1 : 0};
  return make(op, t, x->shape, {x}, a, loc);
}

const Node* Graph::reshape(const Node* x, Shape shape, SourceLoc loc) {
  TZ_ASSERT(numel(shape) == numel(x->shape), "reshape changes the element count");
  if (shape == x->shape) return x;
  if (x->op == Op::Reshape) x = x->src[0];  // reshape(reshape(x)) => reshape(x)
  if (shape == x->shape) return x;
  return make(Op::Reshape, x->dtype, std::move(shape), {x}, {}, loc);
}

const Node* Graph::permute(const Node* x, std::vector<int64_t> perm, SourceLoc loc) {
  TZ_ASSERT(static_cast<int>(perm.size()) == x->rank(), "permutation rank");
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
  if (identity) return x;
  Shape out;
  for (auto p : perm) out.push_back(x->shape[p]);
  Attr a;
  a.ints = std::move(perm);
  return make(Op::Permute, x->dtype, std::move(out), {x}, a, loc);
}

const Node* Graph::expand(const Node* x, Shape shape, SourceLoc loc) {
  if (shape == x->shape) return x;
  TZ_ASSERT(shape.size() == x->shape.size(), "expand rank (unsqueeze first)");
  return make(Op::Expand, x->dtype, std::move(shape), {x}, {}, loc);
}

const Node* Graph::flip(const Node* x, std::vector<int64_t> dims, SourceLoc loc) {
  std::sort(dims.begin(), dims.end());
  std::vector<int64_t> kept;
  for (auto d : dims) {
    TZ_ASSERT(d >= 0 && d < x->rank(), "flip dim out of range");
    if (x->shape[d] > 1 && (kept.empty() || kept.back() != d)) kept.push_back(d);
  }
  if (kept.empty()) return x;
  if (x->op == Op::Flip && x->attr.ints == kept) return x->src[0];  // flip(flip(x)) => x
  Attr a;
  a.ints = std::move(kept);
  return make(Op::Flip, x->dtype, x->shape, {x}, a, loc);
}

const Node* Graph::slice(const Node* x, int64_t dim, int64_t start, int64_t length, int64_t step, SourceLoc loc) {
  TZ_ASSERT(dim >= 0 && dim < x->rank() && step > 0 && start >= 0 && length >= 0, "slice arguments");
  TZ_ASSERT(length == 0 || start + (length - 1) * step < x->shape[dim], "slice past the end");
  if (start == 0 && length == x->shape[dim] && (step == 1 || length <= 1)) return x;
  Shape out = x->shape;
  out[dim] = length;
  Attr a;
  a.ints = {dim, start, length <= 1 ? 1 : step};
  return make(Op::Slice, x->dtype, std::move(out), {x}, a, loc);
}

const Node* Graph::pad(const Node* x, int64_t dim, int64_t before, int64_t after, SourceLoc loc) {
  TZ_ASSERT(dim >= 0 && dim < x->rank() && before >= 0 && after >= 0, "pad arguments");
  if (before == 0 && after == 0) return x;
  Shape out = x->shape;
  out[dim] += before + after;
  Attr a;
  a.ints = {dim, before};
  return make(Op::Pad, x->dtype, std::move(out), {x}, a, loc);
}

const Node* Graph::matmul(const Node* a, const Node* b, SourceLoc loc) {
  TZ_ASSERT(a->rank() >= 2 && b->rank() >= 2, "matmul operands need rank >= 2");
  TZ_ASSERT(a->shape.back() == b->shape[b->rank() - 2], "matmul inner dimensions differ");
  Shape ba(a->shape.begin(), a->shape.end() - 2), bb(b->shape.begin(), b->shape.end() - 2), batch;
  TZ_ASSERT(broadcast_shapes(ba, bb, batch), "matmul batch dims do not broadcast");
  DType common = promote(a->dtype, b->dtype);
  batch.push_back(a->shape[a->rank() - 2]);
  batch.push_back(b->shape.back());
  return make(Op::Matmul, common, batch, {cast(a, common, loc), cast(b, common, loc)}, {}, loc);
}

const Node* Graph::conv(const Node* x, const Node* w, Shape out, Attr attr, SourceLoc loc) {
  TZ_ASSERT(x->rank() >= 3 && w->rank() == x->rank() && static_cast<int>(out.size()) == x->rank(),
            "conv operands need rank >= 3 and equal ranks");
  TZ_ASSERT(x->dtype == w->dtype && is_floating(x->dtype), "conv operands need one floating dtype");
  TZ_ASSERT(attr.ints.size() == 3 * (out.size() - 2) && attr.ints2.size() == 2, "conv attributes");
  return make(Op::Conv, x->dtype, std::move(out), {x, w}, std::move(attr), loc);
}

const Node* Graph::attention(const Node* q, const Node* kt, const Node* v, const Node* mask, Attr attr,
                             SourceLoc loc) {
  TZ_ASSERT(q->rank() >= 2 && kt->rank() >= 2 && v->rank() >= 2, "attention operands need rank >= 2");
  TZ_ASSERT(q->dtype == kt->dtype && q->dtype == v->dtype, "attention operands differ in dtype");
  TZ_ASSERT(q->shape.back() == kt->shape[kt->rank() - 2], "attention head dims differ");
  TZ_ASSERT(kt->shape.back() == v->shape[v->rank() - 2], "attention key counts differ");
  TZ_ASSERT(attr.ints.size() == 3 && attr.floats.size() == 2, "attention attributes");
  TZ_ASSERT((mask != nullptr) == (attr.ints[1] != 0), "attention mask kind without a mask");
  Shape bq(q->shape.begin(), q->shape.end() - 2), bk(kt->shape.begin(), kt->shape.end() - 2);
  Shape bv(v->shape.begin(), v->shape.end() - 2), qk, batch;
  TZ_ASSERT(broadcast_shapes(bq, bk, qk) && broadcast_shapes(qk, bv, batch), "attention batch dims do not broadcast");
  Shape scores = batch, out = batch;
  scores.push_back(q->shape[q->rank() - 2]);
  scores.push_back(kt->shape.back());
  out.push_back(q->shape[q->rank() - 2]);
  out.push_back(v->shape.back());
  std::vector<const Node*> src = {q, kt, v};
  if (mask) {
    Shape joined;
    TZ_ASSERT(broadcast_shapes(mask->shape, scores, joined) && joined == scores, "attention mask does not broadcast");
    src.push_back(mask);
  }
  return make(Op::Attention, q->dtype, out, std::move(src), std::move(attr), loc);
}

namespace {

// PyTorch's gather rule (the index's own shape is the output's): one rank, index.size(d) <= x.size(d) for d != dim.
bool gather_shapes_fit(const Node* x, int64_t dim, const Node* index) {
  if (x->rank() != index->rank() || dim < 0 || dim >= std::max(x->rank(), 1)) return false;
  for (int d = 0; d < x->rank(); ++d) {
    if (d != dim && index->shape[d] > x->shape[d]) return false;
  }
  return index->dtype == DType::Int64 || index->dtype == DType::Int32;
}

}  // namespace

const Node* Graph::gather(const Node* x, int64_t dim, const Node* index, SourceLoc loc) {
  TZ_ASSERT(gather_shapes_fit(x, dim, index), "gather operands");
  Attr a;
  a.ints = {dim};
  return make(Op::Gather, x->dtype, index->shape, {x, index}, a, loc);
}

const Node* rebuild(Graph& out, const Node* old, const std::vector<const Node*>& src) {
  return out.make(old->op, old->dtype, old->shape, src, old->attr, old->loc);
}

std::unique_ptr<Graph> rewrite_graph(const Graph& g, const RewriteFn& rewrite) {
  auto out = std::make_unique<Graph>();
  out->inputs = g.inputs;
  out->params = g.params;
  out->output_is_tuple = g.output_is_tuple;
  std::vector<char> live = live_nodes(g);
  std::vector<const Node*> mapped(g.nodes().size(), nullptr);
  for (const auto& n : g.nodes()) {
    if (!live[n->id]) continue;
    std::vector<const Node*> src;
    for (auto* s : n->src) src.push_back(mapped[s->id]);
    mapped[n->id] = rewrite(*out, n.get(), src);
    TZ_ASSERT(mapped[n->id] != nullptr, "rewrite returned no node");
  }
  for (auto* o : g.outputs) out->outputs.push_back(mapped[o->id]);
  for (const auto& u : g.updates) out->updates.push_back({u.path, mapped[u.value->id]});
  return out;
}

std::string dump_graph(const Graph& g) {
  std::ostringstream os;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    os << "input " << i << " " << g.inputs[i].name << ": " << dtype_name(g.inputs[i].dtype)
       << shape_str(g.inputs[i].shape);
    if (!g.inputs[i].perm.empty()) os << " permuted " << shape_str(g.inputs[i].perm);
    os << "\n";
  }
  for (const auto& p : g.params) {
    os << "param " << p.path << ": " << dtype_name(p.dtype) << shape_str(p.shape) << "\n";
  }
  // Live nodes only, renumbered densely so that dumps are stable across passes.
  std::vector<char> live = live_nodes(g);
  std::vector<int> number(g.nodes().size(), -1);
  int next = 0;
  for (const auto& n : g.nodes()) {
    if (!live[n->id]) continue;
    number[n->id] = next++;
    os << "%" << number[n->id] << " = " << op_name(n->op);
    for (auto* s : n->src) os << " %" << number[s->id];
    const Attr& a = n->attr;
    if (n->op == Op::Input) os << " #" << a.ints[0];
    if (n->op == Op::Param) os << " " << a.str;
    if (n->op == Op::Const) os << " " << a.f;
    if (!a.ints.empty() && n->op != Op::Input) {
      os << " {";
      for (size_t i = 0; i < a.ints.size(); ++i) os << (i ? "," : "") << a.ints[i];
      os << "}";
    }
    if (n->op == Op::Conv) {
      os << " groups=" << a.ints2[0] << (a.ints2[1] ? " transposed" : "");
    } else if (n->keepdim()) {
      os << " keepdim";
    }
    if (!a.floats.empty()) {
      os << " [";
      for (size_t i = 0; i < a.floats.size(); ++i) os << (i ? ", " : "") << a.floats[i];
      os << "]";
    }
    if (!a.str.empty() && n->op != Op::Param) os << " " << a.str;
    os << " : " << dtype_name(n->dtype) << shape_str(n->shape) << "\n";
  }
  os << "return";
  for (auto* o : g.outputs) os << " %" << number[o->id];
  os << "\n";
  for (const auto& u : g.updates) os << "update " << u.path << " = %" << number[u.value->id] << "\n";
  return os.str();
}

void verify(const Graph& g) {
  std::unordered_set<const Node*> seen;
  for (const auto& n : g.nodes()) {
    for (auto* s : n->src) {
      TZ_ASSERT(seen.count(s), std::string("node uses a later node: ") + op_name(n->op));
    }
    seen.insert(n.get());
    switch (op_kind(n->op)) {
      case OpKind::Leaf: TZ_ASSERT(n->src.empty(), "leaf with sources"); break;
      case OpKind::Unary: TZ_ASSERT(n->src.size() == 1, "unary arity"); break;
      case OpKind::Binary: TZ_ASSERT(n->src.size() == 2, "binary arity"); break;
      case OpKind::Ternary: TZ_ASSERT(n->src.size() == 3, "ternary arity"); break;
      case OpKind::Reduce:
      case OpKind::Scan:
      case OpKind::View: TZ_ASSERT(n->src.size() == 1, "arity"); break;
      case OpKind::Matmul: TZ_ASSERT(n->src.size() == 2, "matmul arity"); break;
      case OpKind::Conv:
        TZ_ASSERT(n->src.size() == 2 && n->rank() >= 3 && n->src[0]->rank() == n->rank() &&
                      n->src[1]->rank() == n->rank() && n->attr.ints.size() == 3 * size_t(n->rank() - 2) &&
                      n->attr.ints2.size() == 2,
                  "conv arity or attributes");
        break;
      case OpKind::Window:
        TZ_ASSERT(n->src.size() == 1 && n->rank() == n->src[0]->rank(), "pooling arity and rank");
        break;
      case OpKind::Gather:
        TZ_ASSERT(n->src.size() == 2 && n->attr.ints.size() == 1 &&
                      gather_shapes_fit(n->src[0], n->attr.ints[0], n->src[1]) && n->shape == n->src[1]->shape &&
                      n->dtype == n->src[0]->dtype,
                  "gather operands");
        break;
      case OpKind::Attention: TZ_ASSERT(n->src.size() == (n->attr.ints[1] ? 4u : 3u), "attention arity"); break;
      case OpKind::Composite: break;
    }
    if (is_pointwise(n->op)) {
      Shape acc = n->src[0]->shape;
      for (size_t i = 1; i < n->src.size(); ++i) {
        Shape next;
        TZ_ASSERT(broadcast_shapes(acc, n->src[i]->shape, next), "pointwise operands do not broadcast");
        acc = next;
      }
      TZ_ASSERT(acc == n->shape, std::string("pointwise shape mismatch in ") + op_name(n->op));
    }
    if (op_kind(n->op) == OpKind::Scan) TZ_ASSERT(n->shape == n->src[0]->shape, "scan shape");
    if (n->op == Op::Reshape) TZ_ASSERT(numel(n->shape) == numel(n->src[0]->shape), "reshape numel");
  }
  for (auto* o : g.outputs) TZ_ASSERT(seen.count(o), "output not in graph");
  for (const auto& u : g.updates) {
    TZ_ASSERT(seen.count(u.value), "update not in graph");
    const ParamSpec* p = g.find_param(u.path);
    TZ_ASSERT(p != nullptr, "update of an unknown buffer " + u.path);
    TZ_ASSERT(numel(p->shape) == numel(u.value->shape), "update changes the element count of " + u.path);
  }
}

std::vector<char> live_nodes(const Graph& g) {
  std::vector<char> live(g.nodes().size(), 0);
  std::vector<const Node*> stack(g.outputs.begin(), g.outputs.end());
  for (const auto& u : g.updates) stack.push_back(u.value);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (live[n->id]) continue;
    live[n->id] = 1;
    for (auto* s : n->src) stack.push_back(s);
  }
  return live;
}

}  // namespace tz
