// sink_reshape (see sink_reshape.h).
//   f(reshape(a), reshape(b), c) => reshape(f(a, b, c))   a, b computed values of one shape, c a scalar constant,
//                                                         the reshapes all of f's shape (no broadcasting)
// a may also be a view of an input or parameter whose reshape no strided view can express (a permuted tensor
// merged across the permuted dims): that reshape would need a copy kernel; sunk, f reads the view by strides
// and its result, contiguous, is reshaped for free. Other views of leaves keep their reshape, so that what
// follows (a reduction over the reshaped dims) still sees f in the shape it reduces.
#include "passes/sink_reshape.h"

#include "graph/view.h"

namespace tz {

std::unique_ptr<Graph> sink_reshape(const Graph& g) {
  return rewrite_graph(g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    if (!is_pointwise(old->op)) return rebuild(out, old, src);
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
      if (k == OpKind::Leaf || (k == OpKind::View && view_strides(s, strides))) return rebuild(out, old, src);
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
