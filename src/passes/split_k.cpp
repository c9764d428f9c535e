// split_k: see split_k.h.
#include "passes/split_k.h"

#include "graph/view.h"
#include "passes/gemm_align.h"

namespace tz {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The number of partial products for an M x N product over K (1: not split).
int64_t splits(int64_t m, int64_t n, int64_t k) {
  int64_t tiles = ceil_div(m, kSplitKTile) * ceil_div(n, kSplitKTile);
  int64_t s = 1;
  while (tiles * s * 2 <= kSplitKPrograms && k / (s * 2) >= kSplitKMinChunk) s *= 2;
  return s;
}

}  // namespace

std::unique_ptr<Graph> split_k(const Graph& g) {
  return rewrite_graph(g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    if (old->op != Op::Matmul || old->dtype != DType::Float32 || old->rank() != 2 || old->src[0]->rank() != 2 ||
        old->src[1]->rank() != 2)
      return rebuild(out, old, src);
    const int64_t m = old->shape[0], n = old->shape[1], k = old->src[0]->shape[1];
    const int64_t s = splits(m, n, k);
    if (s == 1) return rebuild(out, old, src);
    // K zero-padded to a multiple of 4 S (zero columns of A meet zero rows of B), so that every chunk starts on
    // a 16-byte boundary. The copy of B that pads K also pads N as gemm_align (next) would pad the partial
    // products' B, so that B is copied once, not padded again by a copy of this copy.
    const int64_t kp = ceil_div(k, 4 * s) * 4 * s, chunk = kp / s;
    const Node* a = src[0];
    const Node* b = src[1];
    int64_t np = n;
    if (kp != k) {
      np = gemm_aligned(n, m, n, chunk, old->dtype);
      a = padded_copy(out, a, {m, kp}, old->loc);
      b = padded_copy(out, b, {kp, np}, old->loc);
    }
    // A [M, K] as [S, M, K/S] (a view: chunk j of every row); B [K, N] as [S, K/S, N].
    const Node* as = out.permute(out.reshape(a, {m, s, chunk}, old->loc), {1, 0, 2}, old->loc);
    const Node* bs = out.reshape(b, {s, chunk, np}, old->loc);
    const Node* partials = out.matmul(as, bs, old->loc);
    if (np != n) partials = out.slice(partials, 2, 0, n, 1, old->loc);
    return out.reduce(Op::Sum, partials, {0}, false, old->loc);
  });
}

}  // namespace tz
