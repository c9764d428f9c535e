// split_reduce (see split_reduce.h).
//   sum(x[K..., R], trailing axes) => sum(sum(x'[K..., P, R/P], -1), -1)   with x' = reshape(x)
// and likewise for prod, max and min. The reshape is pushed through pointwise ops down to the inputs, so a
// fused producer (sum(a * b)) stays fused: sum(a * b) => sum(sum(a' * b', -1), -1).
#include "passes/split_reduce.h"

#include <algorithm>

#include "graph/view.h"

namespace tz {

namespace {

constexpr int64_t kMinRows = 256;     // fewer kept rows than this leaves most of the GPU idle
constexpr int64_t kLongRow = 1 << 16;
constexpr int64_t kMaxParts = 2048;

// The number of parts: the largest divisor of r up to kMaxParts that leaves parts of >= 1024 elements.
int64_t choose_parts(int64_t r) {
  for (int64_t p = std::min(kMaxParts, r / 1024); p >= 2; --p) {
    if (r % p == 0) return p;
  }
  return 1;
}

// `n` (shaped `from`) as shaped `to`, the reshape sunk through same-shaped pointwise ops to the leaves.
const Node* reshaped(Graph& g, const Node* n, const Shape& to) {
  if (n->op == Op::Const) return n;
  if (is_pointwise(n->op)) {
    bool same = true;
    // (a pad stays at the top of its view chain: a pointwise op over a pad is reshaped as a whole)
    for (auto* s : n->src) {
      same = same && s->op != Op::Pad && (s->shape == n->shape || (s->op == Op::Const && s->shape.empty()));
    }
    if (same) {
      std::vector<const Node*> src;
      for (auto* s : n->src) src.push_back(reshaped(g, s, to));
      return g.make(n->op, n->dtype, to, src, n->attr, n->loc);
    }
  }
  return g.reshape(n, to, n->loc);
}

}  // namespace

std::unique_ptr<Graph> split_reduce(const Graph& g) {
  return rewrite_graph(g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    bool splittable = old->op == Op::Sum || old->op == Op::Prod || old->op == Op::Max || old->op == Op::Min;
    const Node* x = src.empty() ? nullptr : src[0];
    if (!splittable) return rebuild(out, old, src);
    const auto& axes = old->attr.ints;
    int rank = x->rank();
    bool trailing = !axes.empty() && axes.back() == rank - 1 && axes.front() == rank - static_cast<int64_t>(axes.size());
    int64_t r = 1;
    for (auto a : axes) r *= x->shape[a];
    int64_t rows = numel(x->shape) / std::max<int64_t>(r, 1);
    if (!trailing || rows >= kMinRows || r < kLongRow) return rebuild(out, old, src);
    int64_t parts = choose_parts(r);
    if (parts < 2) return rebuild(out, old, src);
    Shape kept(x->shape.begin(), x->shape.end() - static_cast<int64_t>(axes.size()));
    Shape split = kept;
    split.push_back(parts);
    split.push_back(r / parts);
    const Node* xs = reshaped(out, x, split);
    int k = static_cast<int>(kept.size());
    const Node* partial = out.reduce(old->op, xs, {k + 1}, false, old->loc);
    const Node* total = out.reduce(old->op, partial, {k}, false, old->loc);
    return out.reshape(total, old->shape, old->loc);
  });
}

}  // namespace tz
