// split_reduce (see split_reduce.h).
//   sum(x[K..., R], trailing axes) => sum(sum(x'[K..., P, R/P], -1), -1)   with x' = reshape(x)
// and likewise for prod, max and min. The reshape is pushed through pointwise ops down to the inputs, so a
// fused producer (sum(a * b)) stays fused: sum(a * b) => sum(sum(a' * b', -1), -1).
//
// Integer argmax and argmin (argmin alike, with min and <; floating ones are split by their kernel instead:
// kernel/lower_reduction.cpp's split rows) split into chunks of C = kArgChunk elements, the first
// P * C of the row viewed as [K..., P, C] and the T = R - P * C left over as a tail:
//   argmax(x, -1) => where(tail wins, T_idx + P * C, sum(where(iota_P == argmax(v, -1), i + iota_P * C, 0), -1))
//     i = argmax(x'[K..., P, C], -1)          the first maximum of each chunk (or its first NaN)
//     v = max(x'[K..., P, C], -1)       each chunk's maximum, NaN when the chunk holds one
//     T_idx, T_v = argmax, max of x[..., P * C:]
//     tail wins = T_v > max(v, -1), or T_v is NaN and max(v) is not
// PyTorch's rules carry over: v is NaN exactly for chunks holding a NaN and chunks are in index order, so the
// argmax over v picks the chunk holding the first NaN, else the first chunk reaching the maximum, and its
// first index; the tail, after every chunk, wins only strictly (or with the first NaN when no chunk has one).
#include "passes/split_reduce.h"

#include <algorithm>
#include <functional>

#include "graph/view.h"

namespace tz {

namespace {

constexpr int64_t kMinRows = 256;     // fewer kept rows than this leaves most of the GPU idle
constexpr int64_t kLongRow = 1 << 16;
constexpr int64_t kMaxParts = 2048;
constexpr int64_t kMinNaturalPart = 1024;   // elements of a part split at the tensor's own dims
constexpr int64_t kMinNaturalParts = 1024;  // and parts (programs) at least
// and parts held in registers (longer ones, like the 97 x 673 planes of a per-sample layer norm, were 1.27x slower
// than the reshaped split's parts of 1552 on the H200)
constexpr int64_t kMaxNaturalPart = 16384;
// Chunk of a split argmax/argmin: one program each (4096 fp32 = 16 KB), so that a whole-tensor argmax of
// 16.8M elements runs on ~4100 programs instead of one.
constexpr int64_t kArgChunk = 4096;

// The number of parts: the largest divisor of r up to kMaxParts that leaves parts of >= 1024 elements.
int64_t choose_parts(int64_t r) {
  for (int64_t p = std::min(kMaxParts, r / 1024); p >= 2; --p) {
    if (r % p == 0) return p;
  }
  return 1;
}

// Does every leaf of the same-shaped pointwise tree of `n` (what a reduction of `n` loads) walk its last dim
// contiguously? Split at the dims, rows of a transposed input would be read across memory (loss_mse_written_
// transposed ran 1.9x slower on the H200 than the reshaped split, which reads such an input in its own order).
bool last_dim_walked(const Node* n) {
  if (n->op == Op::Const) return true;
  if (is_pointwise(n->op)) {
    for (auto* s : n->src) {
      if (s->shape == n->shape && !last_dim_walked(s)) return false;
    }
    return true;
  }
  std::vector<int64_t> st;
  return !view_strides(n, st) || st.empty() || st.back() == 1 || n->shape.back() == 1;
}

// `n` seen through `view` (a chain of views giving shape `to`), sunk through same-shaped pointwise ops to the
// leaves. Never through tril/triu, whose values depend on the row and column of their own shape: sunk, a
// whole-matrix sum of tril(x) kept the elements below the diagonal of the [P, R/P] split instead (75 off of 107).
const Node* viewed(Graph& g, const Node* n, const Shape& to, const std::function<const Node*(const Node*)>& view) {
  if (n->op == Op::Const) return n;
  if (is_pointwise(n->op) && n->op != Op::Tri) {
    bool same = true;
    // (a pad stays at the top of its view chain: a pointwise op over a pad is reshaped as a whole)
    for (auto* s : n->src) {
      same = same && s->op != Op::Pad && (s->shape == n->shape || (s->op == Op::Const && s->shape.empty()));
    }
    if (same) {
      std::vector<const Node*> src;
      for (auto* s : n->src) src.push_back(viewed(g, s, to, view));
      return g.make(n->op, n->dtype, to, src, n->attr, n->loc);
    }
  }
  return view(n);
}

const Node* reshaped(Graph& g, const Node* n, const Shape& to) {
  return viewed(g, n, to, [&](const Node* leaf) { return g.reshape(leaf, to, leaf->loc); });
}

// max (argmax) or min (argmin) over `axis`: NaN when a reduced value is (floating max/min keep NaN).
const Node* extreme(Graph& g, const Node* arg, const Node* x, int64_t axis) {
  return g.reduce(arg->op == Op::ArgMax ? Op::Max : Op::Min, x, {axis}, false, arg->loc);
}

// The split argmax/argmin of `x` (shaped [K..., R], reduced over its last dim) described at the top.
const Node* split_arg(Graph& g, const Node* old, const Node* x) {
  SourceLoc loc = old->loc;
  int k = x->rank() - 1;
  int64_t r = x->shape[k], c = kArgChunk;
  // A chunk size that divides the row (the nearest to kArgChunk within a factor of two) leaves no tail, whose
  // reduction would be one more kernel launch.
  for (int64_t d = 0; d <= kArgChunk / 2; ++d) {
    if (r % (kArgChunk + d) == 0) { c = kArgChunk + d; break; }
    if (r % (kArgChunk - d) == 0) { c = kArgChunk - d; break; }
  }
  int64_t p = r / c, t = r - p * c;
  Shape kept(x->shape.begin(), x->shape.end() - 1);
  Shape split = kept, tail = kept;
  split.push_back(p);
  split.push_back(c);
  tail.push_back(t);
  const Node* xs = viewed(g, x, split, [&](const Node* leaf) {
    return g.reshape(t ? g.slice(leaf, k, 0, p * c, 1, loc) : leaf, split, loc);
  });
  auto i64 = [&](int64_t v) { return g.constant(static_cast<double>(v), DType::Int64); };
  const Node* chunk_idx = g.reduce(old->op, xs, {k + 1}, false, loc);  // [K..., P]
  const Node* chunk_val = extreme(g, old, xs, k + 1);
  const Node* win = g.reduce(old->op, chunk_val, {k}, true, loc);     // [K..., 1]
  const Node* iota = g.make(Op::Iota, DType::Int64, {p}, {}, {}, loc);
  const Node* global = g.binary(Op::Add, chunk_idx, g.binary(Op::Mul, iota, i64(c), loc), loc);
  const Node* idx = g.reduce(Op::Sum, g.where(g.binary(Op::Eq, iota, win, loc), global, i64(0), loc), {k}, false, loc);
  if (t) {
    const Node* xt = viewed(g, x, tail, [&](const Node* leaf) { return g.slice(leaf, k, p * c, t, 1, loc); });
    const Node* tail_idx = g.reduce(old->op, xt, {k}, false, loc);
    const Node* tail_val = extreme(g, old, xt, k);
    const Node* best = extreme(g, old, chunk_val, k);
    const Node* wins = g.binary(old->op == Op::ArgMax ? Op::Gt : Op::Lt, tail_val, best, loc);
    if (is_floating(x->dtype)) {
      const Node* tail_nan = g.binary(Op::Ne, tail_val, tail_val, loc);
      wins = g.binary(Op::LogicalOr, wins,
                      g.binary(Op::LogicalAnd, tail_nan, g.binary(Op::Eq, best, best, loc), loc), loc);
    }
    idx = g.where(wins, g.binary(Op::Add, tail_idx, i64(p * c), loc), idx, loc);
  }
  return g.reshape(idx, old->shape, loc);
}

// Is `n`, or a same-shaped pointwise value computed from it (its cast to the loss's type), a result of the graph?
bool returned(const Graph& g, const std::vector<char>& live, const Node* n) {
  if (std::find(g.outputs.begin(), g.outputs.end(), n) != g.outputs.end()) return true;
  for (const auto& u : g.nodes()) {
    if (live[u->id] && is_pointwise(u->op) && u->shape == n->shape &&
        std::find(u->src.begin(), u->src.end(), n) != u->src.end() && returned(g, live, u.get())) {
      return true;
    }
  }
  return false;
}

// A floating sum over the whole of a computed value stays whole when the value's own pointwise kernel can count
// it tile by tile (kernel/lower_pointwise.cpp's lower_pointwise_total, one read of the inputs): when an operand is
// transposed (the reshaped split would read it through a contiguous copy, the natural one across memory) or when
// the value is returned too (a 'none' loss beside its sum, which the split computed a second time).
//   sum(f(a, b.t()))  stays  sum(f(a, b.t()))
bool counted_by_tiles(const Graph& g, const std::vector<char>& live, const Node* old, const Node* x) {
  if (old->op != Op::Sum || !is_floating(x->dtype) || !is_pointwise(x->op)) return false;
  return !last_dim_walked(x) || returned(g, live, old->src[0]);
}

}  // namespace

bool split_reduce_splits(int64_t rows, int64_t row) { return rows < kMinRows && row >= kLongRow; }

std::unique_ptr<Graph> split_reduce(const Graph& g) {
  const std::vector<char> live = live_nodes(g);
  return rewrite_graph(g, [&](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    bool splittable = old->op == Op::Sum || old->op == Op::Prod || old->op == Op::Max || old->op == Op::Min;
    bool arg = old->op == Op::ArgMax || old->op == Op::ArgMin;
    const Node* x = src.empty() ? nullptr : src[0];
    // (a floating argmax/argmin is split by its kernel instead: lower_reduction's split rows, one launch)
    if (arg && x->dtype != DType::Bool && !is_floating(x->dtype)) {
      int64_t r = x->shape[old->attr.ints[0]];
      bool trailing = old->attr.ints[0] == x->rank() - 1;
      if (!trailing || numel(x->shape) / std::max<int64_t>(r, 1) >= kMinRows || r < kLongRow) {
        return rebuild(out, old, src);
      }
      return split_arg(out, old, x);
    }
    if (!splittable) return rebuild(out, old, src);
    const auto& axes = old->attr.ints;
    int rank = x->rank();
    bool trailing = !axes.empty() && axes.back() == rank - 1 && axes.front() == rank - static_cast<int64_t>(axes.size());
    int64_t r = 1;
    for (auto a : axes) r *= x->shape[a];
    int64_t rows = numel(x->shape) / std::max<int64_t>(r, 1);
    if (!trailing || !split_reduce_splits(rows, r)) return rebuild(out, old, src);
    // Split where the tensor's own dims split, when that leaves enough rows of long enough parts: no reshape, so
    // the partial reduction keeps the space of the row kernels around it (the rows of a log_softmax that the sum
    // of a KL divergence reads, x.sum(dim=-1) beside x.min()) and can join them.
    for (size_t j = 1; j < axes.size() && last_dim_walked(x); ++j) {
      int64_t inner = 1;
      for (size_t t = j; t < axes.size(); ++t) inner *= x->shape[static_cast<size_t>(axes[t])];
      if (inner < kMinNaturalPart || inner > kMaxNaturalPart || rows * (r / inner) < kMinNaturalParts) continue;
      std::vector<int64_t> inner_axes(axes.begin() + static_cast<int64_t>(j), axes.end()),
          outer_axes(axes.begin(), axes.begin() + static_cast<int64_t>(j));
      const Node* partial = out.reduce(old->op, x, inner_axes, false, old->loc, old->attr.str);
      const Node* total = out.reduce(old->op, partial, outer_axes, false, old->loc, old->attr.str);
      return out.reshape(total, old->shape, old->loc);
    }
    // (after the natural split, which keeps a 'none' loss's rows and their partial sums in one kernel too)
    if (rows == 1 && counted_by_tiles(g, live, old, x)) return rebuild(out, old, src);
    int64_t parts = choose_parts(r);
    if (parts < 2) return rebuild(out, old, src);
    Shape kept(x->shape.begin(), x->shape.end() - static_cast<int64_t>(axes.size()));
    Shape split = kept;
    split.push_back(parts);
    split.push_back(r / parts);
    const Node* xs = reshaped(out, x, split);
    int k = static_cast<int>(kept.size());
    const Node* partial = out.reduce(old->op, xs, {k + 1}, false, old->loc, old->attr.str);
    const Node* total = out.reduce(old->op, partial, {k}, false, old->loc, old->attr.str);
    return out.reshape(total, old->shape, old->loc);
  });
}

}  // namespace tz
