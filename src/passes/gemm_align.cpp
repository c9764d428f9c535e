// gemm_align: see gemm_align.h.
#include "passes/gemm_align.h"

#include "graph/view.h"

namespace tz {

namespace {

// An operand this pass may rewrite: a strided view without broadcast dims. One it copies (to pad it) comes out
// row-major whatever its layout (a transposed operand is transposed by the copy); one it leaves must be row-major.
bool strided(const Node* x, bool row_major) {
  std::vector<int64_t> st;
  if (!view_strides(x, st) || (row_major && st.back() != 1)) return false;
  for (int64_t s : st) {
    if (s == 0) return false;
  }
  return true;
}

bool misaligned(int64_t row, DType t) { return (row * dtype_size(t)) % 16 != 0; }

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// x zero-padded at the end of `dim` to `size`, materialized by a copy kernel.
const Node* padded_copy(Graph& out, const Node* x, int dim, int64_t size, SourceLoc loc) {
  return out.unary(Op::Copy, out.pad(x, dim, 0, size - x->shape[static_cast<size_t>(dim)], loc), loc);
}

}  // namespace

std::unique_ptr<Graph> gemm_align(const Graph& g) {
  return rewrite_graph(g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    if (old->op != Op::Matmul || old->dtype != DType::Float32) return rebuild(out, old, src);
    const Node* a = old->src[0];
    const Node* b = old->src[1];
    int ra = a->rank(), rb = b->rank(), ro = old->rank();
    int64_t m = old->shape[static_cast<size_t>(ro - 2)], n = old->shape.back(), k = a->shape.back();
    bool k_bad = misaligned(k, a->dtype), n_bad = misaligned(n, b->dtype);
    // (A is copied when K is padded; B when K or N is. torch.mm(a.t(), b.t()) at 3001 x 4097 x 2999 ran 0.44x
    // cuBLAS with its transposed operands left misaligned, the session-10 suite.)
    if (!(k_bad || n_bad) || !strided(a, !k_bad) || !strided(b, false)) return rebuild(out, old, src);
    if (m < kGemmAlignMinReuse || n < kGemmAlignMinReuse || k < kGemmAlignMinReuse) return rebuild(out, old, src);
    int64_t per_16 = 16 / dtype_size(old->dtype);
    const Node* a2 = src[0];
    const Node* b2 = src[1];
    // K is padded on both sides (zero columns of A meet zero rows of B); a pad never sits under another view, so
    // padding both dims of B takes two copies.
    if (k_bad) {
      a2 = padded_copy(out, a2, ra - 1, round_up(k, per_16), old->loc);
      b2 = padded_copy(out, b2, rb - 2, round_up(k, per_16), old->loc);
    }
    if (n_bad) b2 = padded_copy(out, b2, rb - 1, round_up(n, per_16), old->loc);
    const Node* c = out.matmul(a2, b2, old->loc);
    return n_bad ? out.slice(c, ro - 1, 0, n, 1, old->loc) : c;
  });
}

}  // namespace tz
