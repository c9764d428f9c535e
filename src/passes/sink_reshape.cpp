// sink_reshape (see sink_reshape.h).
//   f(reshape(a), reshape(b), c) => reshape(f(a, b, c))   a, b computed values of one shape, c a scalar constant,
//                                                         the reshapes all of f's shape (no broadcasting)
// a may also be a view of an input or parameter whose reshape no strided view can express (a permuted tensor
// merged across the permuted dims), when everything computed from f is pointwise of f's shape up to the
// outputs: that reshape would need a copy kernel; sunk, f reads the view by strides and the result, contiguous,
// is reshaped for free. Where a reduction or a broadcast follows, the sunk values would be materialized for it
// (more bytes than the copy of the input), so the reshape stays. Other views of leaves keep their reshape.
//
// Otherwise, a pointwise op or a sum/prod/max/min reading a reshape that splits or merges non-unit dims of a
// computed pointwise (or reduced) value `a`, or of a permuted leaf that no strided view can merge, runs in the
// common refinement T of both shapes (every dim of each is a run of T's dims), and its result is reshaped back:
//   f(reshape(a), b)        => reshape(f(a', b'))       a' = a in T, b' = b split to T (b's pointwise producers
//                                                       used only there are computed in T: split before them)
//   sum(reshape(a), {k})    => reshape(sum(a', K))      K = the dims of T that dim k splits into
// A split of a leaf is always a strided view, so every leaf stays free, and every computed value is then read
// with a per-dim map: the producer and consumer share a kernel (flatten(x, 2) + pos feeding flatten(x, 1) * w
// was two kernels and a [256, 64, 9216] buffer between them), and a merged permuted input is read by strides
// (x.transpose(1, 2).reshape(b, s, h * d) before an RMS norm was a copy kernel). Where some source would need a
// reshape that mixes dims of a computed value, or of a leaf that no strided view can express, nothing changes.
//
// The other way round, a pointwise op f whose shape refines the space C of a reduction that one of its sources
// is computed from (through pointwise ops and views: a broadcast of the reduced value, or a value computed in C
// and reshaped to f's shape) runs in C, and its result is reshaped back (a free view of a contiguous buffer):
//   f(x, reshape(r))        => reshape(f(x', r'))       r computed from sum(reshape(x, C), k), x' = x merged to C
//                                                       (a strided view), r' = r with C's unit dims
// every source merged to C: where f's source has every non-unit dim of a run of f's dims that C merges (a
// leaf's merge only where strides express it; a pointwise producer used only there is computed in C too), or
// broadcast along all of them. The fused kernel space follows the reduction's, so f joins its kernel: x minus
// the mean of x.view(b, c, h * w) read x in two kernels (1.5x the problem's bytes), one now. Where some source
// is broadcast along part of a run, or needs a copy to merge (a transposed leaf, a computed value whose dims
// would mix), nothing changes; a consumer of f's result that cannot run in C refines it back (above).
#include "passes/sink_reshape.h"

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>

#include "graph/view.h"

namespace tz {

namespace {

// Is every value computed from `n` (in `g`) pointwise of n's shape, up to the outputs?
class PointwiseToOutputs {
 public:
  explicit PointwiseToOutputs(const Graph& g) {
    for (const auto& n : g.nodes()) {
      for (const Node* s : n->src) users_[s].push_back(n.get());
    }
  }

  bool operator()(const Node* n) {
    auto it = memo_.find(n);
    if (it != memo_.end()) return it->second;
    bool ok = true;
    for (const Node* u : users_[n]) ok = ok && is_pointwise(u->op) && u->shape == n->shape && (*this)(u);
    return memo_[n] = ok;
  }

 private:
  std::unordered_map<const Node*, std::vector<const Node*>> users_;
  std::unordered_map<const Node*, bool> memo_;
};

using Runs = std::vector<std::pair<size_t, size_t>>;  // per dim of a shape, the half-open run of T's dims

// The common refinement of `a` and `b` (same element count), unit dims dropped: [256, 589824] and
// [256, 64, 9216] give [256, 64, 9216]. False when the dims do not nest ([6, 4] and [4, 6]).
bool common_refinement(const Shape& a, const Shape& b, Shape& t) {
  t.clear();
  if (numel(a) == 0 || numel(b) == 0) return false;
  size_t i = 0, j = 0;
  int64_t ra = 1, rb = 1;  // what is left of the current dims of a and b (1: take the next non-unit dim)
  while (true) {
    while (ra == 1 && i < a.size()) ra = a[i++];
    while (rb == 1 && j < b.size()) rb = b[j++];
    if (ra == 1 || rb == 1) return ra == rb;
    int64_t part = std::min(ra, rb);
    if (ra % part || rb % part) return false;
    t.push_back(part);
    ra /= part;
    rb /= part;
  }
}

// The runs of `u`'s dims that split each dim of `s`; dims of u in no run have size 1 (a unit dim of s has an
// empty run). False when u does not refine s.
bool runs_in(const Shape& s, const Shape& u, Runs& runs) {
  runs.clear();
  size_t p = 0;
  for (int64_t size : s) {
    if (size == 1) {
      runs.emplace_back(p, p);
      continue;
    }
    while (p < u.size() && u[p] == 1) ++p;
    size_t lo = p;
    int64_t prod = 1;
    while (p < u.size() && prod < size) prod *= u[p++];
    if (prod != size) return false;
    runs.emplace_back(lo, p);
  }
  for (; p < u.size(); ++p) {
    if (u[p] != 1) return false;
  }
  return true;
}

// The shape in T (of rank |u|) of a source shaped `s` broadcast against a value shaped `out` whose dims run
// over `runs` of u: u's sizes where the source has the dim, ones where it is broadcast.
Shape operand_in(const Shape& s, const Shape& out, const Runs& runs, const Shape& u) {
  Shape r(u.size(), 1);
  size_t offset = out.size() - s.size();
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == 1 || s[k] != out[k + offset]) continue;
    for (size_t d = runs[k + offset].first; d < runs[k + offset].second; ++d) r[d] = u[d];
  }
  return r;
}

bool leaf_root(const Node* n) { return op_kind(view_root(n)->op) == OpKind::Leaf; }

// Does `view` mix dims (merge or split non-unit dims) of a value computed in a kernel?
bool mixes_dims(const Node* view) {
  std::vector<int> map(view->shape.size(), 0), src_map;
  return view->op == Op::Reshape && !view_source_map(view, map, src_map);
}

// Builds, in `out`, the values of the rewritten graph in a refined shape (see the header).
class Refiner {
 public:
  Refiner(Graph& out, const std::unordered_map<const Node*, int>& uses) : out_(out), uses_(uses) {}

  // `x` (a node of `out`) as a value of shape `u`, a refinement of x's shape, or null when that would need a
  // reshape mixing dims of a computed value or a leaf view that strides cannot express.
  // `shared`: a view between the value being rewritten and `x` has other users, so x is computed anyway.
  const Node* operator()(const Node* x, const Shape& u, bool shared = false) {
    if (x->shape == u) return x;
    if (x->op == Op::Const && x->shape.empty()) return x;
    auto key = std::make_tuple(x, u, shared);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    return memo_[key] = refine(x, u, shared);
  }

  // Does `x` (a node of `out`) have a single user in the graph being rewritten?
  bool single_use(const Node* x) const {
    auto it = uses_.find(x);
    return it != uses_.end() && it->second == 1;
  }

 private:
  const Node* refine(const Node* x, const Shape& u, bool shared) {
    shared = shared || !single_use(x);
    Runs runs;
    if (!runs_in(x->shape, u, runs)) return nullptr;
    if (leaf_root(x)) {  // a split of a strided view is strided
      if (view_root(x)->op == Op::Iota || !view_pads(x).empty()) return nullptr;  // (read by index, no strides)
      const Node* v = out_.reshape(x, u, x->loc);
      std::vector<int64_t> strides;
      return view_strides(v, strides) ? v : nullptr;
    }
    if (x->op == Op::Reshape) {
      Runs inner;
      if (runs_in(x->src[0]->shape, u, inner)) return (*this)(x->src[0], u, shared);
    }
    if (x->op == Op::Expand) {  // split the source with ones where it is expanded
      const Node* s = (*this)(x->src[0], operand_in(x->src[0]->shape, x->shape, runs, u), shared);
      return s ? out_.expand(s, u, x->loc) : nullptr;
    }
    if (is_pointwise(x->op) && x->op != Op::Tri && !shared) {  // (tri reads its row and column)
      std::vector<const Node*> src;
      for (const Node* s : x->src) {
        src.push_back((*this)(s, operand_in(s->shape, x->shape, runs, u)));
        if (!src.back()) return nullptr;
      }
      return out_.make(x->op, x->dtype, u, src, x->attr, x->loc);
    }
    const Node* v = out_.reshape(x, u, x->loc);  // only unit dims may change: the value keeps a per-dim map
    return mixes_dims(v) ? nullptr : v;
  }

  Graph& out_;
  const std::unordered_map<const Node*, int>& uses_;
  std::map<std::tuple<const Node*, Shape, bool>, const Node*> memo_;
};

// The value `a` that a source reshape mixes dims of, when running in a common refinement pays: a computed
// pointwise value or reduction (the reshape splits fusion), or a leaf view that no strided view can merge.
const Node* mixed_source(const Node* s) {
  if (!mixes_dims(s)) return nullptr;
  const Node* a = s->src[0];
  std::vector<int64_t> strides;
  if (leaf_root(a)) return view_strides(s, strides) || a->op == Op::Pad ? nullptr : a;
  return is_pointwise(a->op) || op_kind(a->op) == OpKind::Reduce ? a : nullptr;
}

// f(.., reshape(a), ..) => reshape(f'(..)), f' in the common refinement T of f's shape and every such a's.
const Node* refine_pointwise(Graph& out, Refiner& refine, const Node* old, const std::vector<const Node*>& src) {
  Shape t = old->shape;
  bool any = false;
  for (const Node* s : src) {
    const Node* a = mixed_source(s);
    if (!a) continue;
    Shape next;
    if (!common_refinement(t, a->shape, next)) return nullptr;
    t = next;
    any = true;
  }
  Runs runs;
  if (!any || !runs_in(old->shape, t, runs)) return nullptr;
  if (old->op == Op::Tri && t != old->shape) return nullptr;  // (tril/triu read their row and column)
  std::vector<const Node*> sunk;
  for (const Node* s : src) {
    Shape u = operand_in(s->shape, old->shape, runs, t);
    sunk.push_back(mixed_source(s) ? refine(s->src[0], u, !refine.single_use(s)) : refine(s, u));
    if (!sunk.back()) return nullptr;
  }
  return out.reshape(out.make(old->op, old->dtype, t, sunk, old->attr, old->loc), old->shape, old->loc);
}

// sum(reshape(a), axes) => reshape(sum(a', axes')) (also prod, max, min: no index is returned).
const Node* refine_reduction(Graph& out, Refiner& refine, const Node* old, const std::vector<const Node*>& src) {
  if (old->op != Op::Sum && old->op != Op::Prod && old->op != Op::Max && old->op != Op::Min) return nullptr;
  const Node* s = src[0];
  const Node* a = mixed_source(s);
  Shape t;
  Runs runs;
  if (!a || !common_refinement(s->shape, a->shape, t) || !runs_in(s->shape, t, runs)) return nullptr;
  std::vector<int64_t> axes;
  for (int64_t k : old->attr.ints) {
    for (size_t d = runs[k].first; d < runs[k].second; ++d) axes.push_back(static_cast<int64_t>(d));
  }
  for (size_t i = 1; i < axes.size(); ++i) {
    if (axes[i] != axes[i - 1] + 1) return nullptr;  // (decompose splits reductions over non-adjacent dims)
  }
  if (axes.empty()) return nullptr;
  const Node* x = refine(a, t, !refine.single_use(s));
  if (!x) return nullptr;
  Shape shape = t;
  for (int64_t d : axes) shape[d] = 1;
  Attr attr = old->attr;
  attr.ints = axes;
  attr.ints2 = {1};
  return out.reshape(out.make(old->op, old->dtype, shape, {x}, attr, old->loc), old->shape, old->loc);
}

// The shape in a coarser space `c` of a source shaped `s` broadcast against a value shaped `out`, whose dims
// merge by `runs` (out's dims that make each dim of c): c's size where the source has every non-unit dim of
// the run, one where it is broadcast along all of them. False where it has some of a run's dims and not others
// (no coarser shape holds it).
bool coarse_shape(const Shape& s, const Shape& out, const Runs& runs, const Shape& c, Shape& r) {
  r.assign(c.size(), 1);
  size_t offset = out.size() - s.size();
  for (size_t j = 0; j < c.size(); ++j) {
    bool present = false, broadcast = false;
    for (size_t d = runs[j].first; d < runs[j].second; ++d) {
      if (out[d] == 1) continue;
      bool has = d >= offset && s[d - offset] == out[d];
      (has ? present : broadcast) = true;
    }
    if (present && broadcast) return false;
    if (present) r[j] = c[j];
  }
  return true;
}

// Builds, in `out`, the values of the rewritten graph in a coarser shape: the inverse of Refiner, for the
// sources of a pointwise op that runs in the space of a reduction computed in a merged view (see the header).
class Coarsener {
 public:
  Coarsener(Graph& out, const std::unordered_map<const Node*, int>& uses) : out_(out), uses_(uses) {}

  // `x` (a node of `out`) as a value of shape `u` (of x's element count, every dim of x's shape in a run of
  // dims that merges into one dim of u), or null when that would need a reshape mixing dims of a computed value
  // or a leaf view that strides cannot express.
  const Node* operator()(const Node* x, const Shape& u) {
    if (x->shape == u) return x;
    if (x->op == Op::Const && x->shape.empty()) return x;
    auto key = std::make_pair(x, u);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    return memo_[key] = coarsen(x, u);
  }

  // The shape of the space in which the reduction that `x` (a node of `out`) is computed from runs (its
  // source's shape), through pointwise ops and views of computed values; empty when there is none.
  const Shape& reduction_space(const Node* x) {
    auto it = space_.find(x);
    if (it != space_.end()) return it->second;
    Shape s;
    if (op_kind(x->op) == OpKind::Reduce) {
      s = x->src[0]->shape;
    } else if ((is_pointwise(x->op) || op_kind(x->op) == OpKind::View) && !leaf_root(x)) {
      for (const Node* src : x->src) {
        if (s.empty()) s = reduction_space(src);
      }
    }
    return space_[x] = s;
  }

 private:
  const Node* coarsen(const Node* x, const Shape& u) {
    if (leaf_root(x)) {  // a merge of a leaf is free where strides express it
      if (view_root(x)->op == Op::Iota || !view_pads(x).empty()) return nullptr;  // (read by index, no strides)
      const Node* v = out_.reshape(x, u, x->loc);
      std::vector<int64_t> strides;
      return view_strides(v, strides) ? v : nullptr;
    }
    const Node* v = out_.reshape(x, u, x->loc);
    if (!mixes_dims(v)) return v;  // only unit dims change: the value keeps a per-dim map
    if (x->op == Op::Reshape) return (*this)(x->src[0], u);  // reshape(reshape(a)) = reshape(a)
    Runs runs;
    if (!runs_in(u, x->shape, runs)) return nullptr;
    if (x->op == Op::Expand) {  // merge the source, with ones where it is expanded
      Shape su;
      if (!coarse_shape(x->src[0]->shape, x->shape, runs, u, su)) return nullptr;
      const Node* s = (*this)(x->src[0], su);
      return s ? out_.expand(s, u, x->loc) : nullptr;
    }
    auto it = uses_.find(x);
    bool single = it != uses_.end() && it->second == 1;
    if (is_pointwise(x->op) && x->op != Op::Tri && single) {  // (tri reads its row and column)
      std::vector<const Node*> src;
      for (const Node* s : x->src) {
        Shape su;
        if (!coarse_shape(s->shape, x->shape, runs, u, su)) return nullptr;
        src.push_back((*this)(s, su));
        if (!src.back()) return nullptr;
      }
      return out_.make(x->op, x->dtype, u, src, x->attr, x->loc);
    }
    return nullptr;
  }

 private:
  Graph& out_;
  const std::unordered_map<const Node*, int>& uses_;
  std::map<std::pair<const Node*, Shape>, const Node*> memo_;
  std::unordered_map<const Node*, Shape> space_;
};

size_t non_unit_dims(const Shape& s) {
  size_t k = 0;
  for (int64_t d : s) k += d != 1;
  return k;
}

// f(.., broadcast(r), ..) => reshape(f'(..)) where r is computed from a reduction over a shape C that f's shape
// refines (C merges runs of f's dims): f' runs in C, its other sources merged to C (leaves by strides), so it
// joins the reduction's kernel. Null when no such C takes every source.
const Node* coarsen_pointwise(Graph& out, Coarsener& coarsen, const Node* old, const std::vector<const Node*>& src) {
  if (old->op == Op::Tri) return nullptr;  // (tril/triu read their row and column)
  std::set<Shape> tried;
  for (const Node* a : src) {
    const Shape& c = coarsen.reduction_space(a);
    if (c.empty() || !tried.insert(c).second) continue;
    Runs runs;
    if (!runs_in(c, old->shape, runs) || non_unit_dims(c) >= non_unit_dims(old->shape)) continue;
    std::vector<const Node*> sunk;
    for (const Node* s : src) {
      Shape u;
      const Node* v = coarse_shape(s->shape, old->shape, runs, c, u) ? coarsen(s, u) : nullptr;
      if (!v) break;
      sunk.push_back(v);
    }
    if (sunk.size() < src.size()) continue;
    return out.reshape(out.make(old->op, old->dtype, c, sunk, old->attr, old->loc), old->shape, old->loc);
  }
  return nullptr;
}

// f(reshape(a), reshape(b), c) => reshape(f(a, b, c)) (the first rule of the header), or null.
const Node* sink_common(Graph& out, const Node* old, const std::vector<const Node*>& src,
                        PointwiseToOutputs& pointwise_to_outputs) {
  if (old->op == Op::Tri) return nullptr;  // tril/triu read their row and column: the reshape changes them
  const Shape* inner = nullptr;
  std::vector<const Node*> sunk;
  for (const Node* s : src) {
    if (s->op == Op::Const && s->shape.empty()) {
      sunk.push_back(s);
      continue;
    }
    if (s->op != Op::Reshape || s->shape != old->shape) return nullptr;
    const Node* a = s->src[0];
    OpKind k = op_kind(a->op);
    std::vector<int64_t> strides;
    bool copy_saved = k == OpKind::View && !view_strides(s, strides) && pointwise_to_outputs(old);
    if ((k == OpKind::Leaf || k == OpKind::View) && !copy_saved) return nullptr;
    if (inner && a->shape != *inner) return nullptr;
    inner = &a->shape;
    sunk.push_back(a);
  }
  if (!inner) return nullptr;
  const Node* n = out.make(old->op, old->dtype, *inner, sunk, old->attr, old->loc);
  return out.reshape(n, old->shape, old->loc);
}

}  // namespace

std::unique_ptr<Graph> sink_reshape(const Graph& g) {
  PointwiseToOutputs pointwise_to_outputs(g);
  // Live users of each old node (outputs and updates count), carried over to the nodes that replace it.
  std::vector<char> live = live_nodes(g);
  std::unordered_map<const Node*, int> old_uses, uses;
  for (const auto& n : g.nodes()) {
    if (!live[n->id]) continue;
    std::set<const Node*> distinct(n->src.begin(), n->src.end());
    for (const Node* s : distinct) ++old_uses[s];
  }
  for (const Node* o : g.outputs) ++old_uses[o];
  for (const auto& u : g.updates) ++old_uses[u.value];
  std::unique_ptr<Refiner> refiner;
  std::unique_ptr<Coarsener> coarsener;
  auto sink = [&](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    if (!refiner) refiner = std::make_unique<Refiner>(out, uses);
    if (!coarsener) coarsener = std::make_unique<Coarsener>(out, uses);
    if (op_kind(old->op) == OpKind::Reduce) {
      const Node* r = refine_reduction(out, *refiner, old, src);
      return r ? r : rebuild(out, old, src);
    }
    if (!is_pointwise(old->op)) return rebuild(out, old, src);
    if (const Node* n = sink_common(out, old, src, pointwise_to_outputs)) return n;
    if (const Node* n = coarsen_pointwise(out, *coarsener, old, src)) return n;
    if (const Node* n = refine_pointwise(out, *refiner, old, src)) return n;
    return rebuild(out, old, src);
  };
  return rewrite_graph(g, [&](Graph& out, const Node* old, const std::vector<const Node*>& src) {
    const Node* n = sink(out, old, src);
    // The value in the refined shape under a reshape back has the same users.
    int k = old_uses[old];
    uses[n] += k;
    if (n->op == Op::Reshape && old->op != Op::Reshape) uses[n->src[0]] += k;
    return n;
  });
}

}  // namespace tz
