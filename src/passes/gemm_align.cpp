// gemm_align: see gemm_align.h.
#include "passes/gemm_align.h"

#include "graph/view.h"

namespace tz {

namespace {

// x (an operand of a GEMM whose other side has length `reuse`) as is, or as a slice of a row-padded copy.
const Node* aligned(Graph& out, const Node* old_x, const Node* x, int64_t reuse, SourceLoc loc) {
  int rank = old_x->rank();
  std::vector<int64_t> st;
  if (!view_strides(old_x, st) || st.back() != 1 || old_x->shape[rank - 2] == 1) return x;
  for (int64_t s : st) {
    if (s == 0) return x;  // a broadcast operand: a copy would materialize it
  }
  int64_t elem = dtype_size(old_x->dtype);
  int64_t row = old_x->shape.back();
  if ((st[rank - 2] * elem) % 16 == 0 || reuse < kGemmAlignMinReuse) return x;
  int64_t numel = 1;
  for (int64_t d : old_x->shape) numel *= d;
  if (numel < kGemmAlignMinElements) return x;
  int64_t per_16 = 16 / elem;
  int64_t padded = (row + per_16 - 1) / per_16 * per_16;
  const Node* copy = out.unary(Op::Copy, out.pad(x, rank - 1, 0, padded - row, loc), loc);
  return out.slice(copy, rank - 1, 0, row, 1, loc);
}

}  // namespace

std::unique_ptr<Graph> gemm_align(const Graph& g) {
  return rewrite_graph(g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    if (old->op != Op::Matmul || old->dtype != DType::Float32) return rebuild(out, old, src);
    int rank = old->rank();
    const Node* a = aligned(out, old->src[0], src[0], old->shape[rank - 1], old->loc);
    const Node* b = aligned(out, old->src[1], src[1], old->shape[rank - 2], old->loc);
    if (a == src[0] && b == src[1]) return rebuild(out, old, src);
    return out.matmul(a, b, old->loc);
  });
}

}  // namespace tz
