// sink_reshape (see sink_reshape.h).
//   f(reshape(a), reshape(b), c) => reshape(f(a, b, c))   a, b computed values of one shape, c a scalar constant,
//                                                         the reshapes all of f's shape (no broadcasting)
// a may also be a view of an input or parameter whose reshape no strided view can express (a permuted tensor
// merged across the permuted dims), when everything computed from f is pointwise of f's shape up to the
// outputs: that reshape would need a copy kernel; sunk, f reads the view by strides and the result, contiguous,
// is reshaped for free. Where a reduction or a broadcast follows, the sunk values would be materialized for it
// (more bytes than the copy of the input), so the reshape stays. Other views of leaves keep their reshape.
// f is never tril/triu, whose values depend on the row and column of f's own shape.
#include "passes/sink_reshape.h"

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

}  // namespace

std::unique_ptr<Graph> sink_reshape(const Graph& g) {
  PointwiseToOutputs pointwise_to_outputs(g);
  return rewrite_graph(g, [&](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    // (tril/triu read their row and column: computed in another shape they keep other elements)
    if (!is_pointwise(old->op) || old->op == Op::Tri) return rebuild(out, old, src);
    const Shape* inner = nullptr;
    std::vector<const Node*> sunk;
    for (const Node* s : src) {
      if (s->op == Op::Const && s->shape.empty()) {
        sunk.push_back(s);
        continue;
      }
      if (s->op != Op::Reshape || s->shape != old->shape) return rebuild(out, old, src);
      const Node* a = s->src[0];
      OpKind k = op_kind(a->op);
      std::vector<int64_t> strides;
      bool copy_saved = k == OpKind::View && !view_strides(s, strides) && pointwise_to_outputs(old);
      if ((k == OpKind::Leaf || k == OpKind::View) && !copy_saved) return rebuild(out, old, src);
      if (inner && a->shape != *inner) return rebuild(out, old, src);
      inner = &a->shape;
      sunk.push_back(a);
    }
    if (!inner) return rebuild(out, old, src);
    const Node* n = out.make(old->op, old->dtype, *inner, sunk, old->attr, old->loc);
    return out.reshape(n, old->shape, old->loc);
  });
}

}  // namespace tz
