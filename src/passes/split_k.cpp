// split_k: see split_k.h.
#include "passes/split_k.h"

#include "graph/view.h"
#include "kernel/matmul_tiles.h"
#include "passes/gemm_align.h"

namespace tz {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The number of partial products for an M x N product over K (1: not split): as many as fill kSplitKPrograms
// programs, counting the output tiles of the partial products' kernel.
int64_t splits(int64_t m, int64_t n, int64_t k) {
  MatmulTiles t = matmul_tiles(m, n, kSplitKMinChunk, DType::Float32, true);
  int64_t tiles = ceil_div(m, t.block_m) * ceil_div(n, t.block_n);
  int64_t s = std::min(kSplitKPrograms / tiles, k / kSplitKMinChunk);
  return s >= 2 ? s : 1;
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
    // K zero-padded (zero columns of A meet zero rows of B) so that every chunk starts on a 16-byte boundary,
    // and, since the operands are copied then anyway, to whole BLOCK_K steps (32 fp32). The copy of B that pads
    // K also pads N as gemm_align (next) would pad the partial products' B, so that B is copied once.
    const int64_t kp = k % (4 * s) == 0 ? k : ceil_div(k, 32 * s) * 32 * s, chunk = kp / s;
    const int64_t np = kp != k ? gemm_aligned(n, m, n, chunk, old->dtype) : n;
    const Node* a = kp != k ? padded_copy(out, src[0], {m, kp}, old->loc) : src[0];
    // B stored [Np, Kp] (K contiguous) as [S, K/S, N]: chunk j of every column.
    const Node* bt = k_major_stored(out, src[1], kp, np, old->loc);
    const Node* bs = out.permute(out.reshape(bt, {np, s, chunk}, old->loc), {1, 2, 0}, old->loc);
    // A [M, K] as [S, M, K/S] (a view: chunk j of every row).
    const Node* as = out.permute(out.reshape(a, {m, s, chunk}, old->loc), {1, 0, 2}, old->loc);
    Attr split;
    split.str = kSplitKAttr;
    const Node* partials = out.make(Op::Matmul, DType::Float32, {s, m, np}, {as, bs}, split, old->loc);
    if (np != n) partials = out.slice(partials, 2, 0, n, 1, old->loc);
    return out.reduce(Op::Sum, partials, {0}, false, old->loc);
  });
}

}  // namespace tz
