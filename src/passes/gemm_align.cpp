// gemm_align: see gemm_align.h.
#include "passes/gemm_align.h"

#include "graph/view.h"

namespace tz {

namespace {

// An operand this pass may rewrite: a strided view without broadcast dims. A copied A comes out row-major
// whatever its layout (a transposed A is transposed by the copy), a copied B K-major; an A it leaves must be
// row-major.
bool strided(const Node* x, bool row_major) {
  std::vector<int64_t> st;
  if (!view_strides(x, st) || (row_major && st.back() != 1)) return false;
  for (int64_t s : st) {
    if (s == 0) return false;
  }
  return true;
}

// Whether x (a strided view, rank >= 2) walks memory contiguously along its second-last dim (B's K): x.t() of a
// row-major tensor.
bool k_contiguous(const Node* x) {
  std::vector<int64_t> st;
  return view_strides(x, st) && st[static_cast<size_t>(x->rank() - 2)] == 1;
}

// The permutation that swaps the last two of `rank` dims.
std::vector<int64_t> swap_last(int rank) {
  std::vector<int64_t> p;
  for (int d = 0; d < rank; ++d) p.push_back(d);
  std::swap(p[static_cast<size_t>(rank - 2)], p[static_cast<size_t>(rank - 1)]);
  return p;
}

bool misaligned(int64_t row, DType t) { return (row * dtype_size(t)) % 16 != 0; }

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

}  // namespace

int64_t gemm_aligned(int64_t size, int64_t m, int64_t n, int64_t k, DType t) {
  // 16-bit rows only when they are not even 4-byte aligned (an odd K or N): 8-byte aligned ones ran fast as they are
  bool half = t == DType::Float16 || t == DType::BFloat16;
  if (half ? size % 2 == 0 : t != DType::Float32 || !misaligned(size, t)) return size;
  if (m < kGemmAlignMinReuse || n < kGemmAlignMinReuse || k < kGemmAlignMinReuse) return size;
  return round_up(size, 16 / dtype_size(t));
}

const Node* padded_copy(Graph& out, const Node* x, const Shape& shape, SourceLoc loc) {
  const Node* p = x;
  for (int d = 0; d < x->rank(); ++d) {
    TZ_ASSERT(shape[static_cast<size_t>(d)] >= x->shape[static_cast<size_t>(d)], "padded_copy shrinks a dim");
    p = out.pad(p, d, 0, shape[static_cast<size_t>(d)] - x->shape[static_cast<size_t>(d)], loc);
  }
  return p == x ? x : out.unary(Op::Copy, p, loc);
}

const Node* k_major_stored(Graph& out, const Node* b, int64_t kp, int64_t np, SourceLoc loc) {
  int r = b->rank();
  const Node* bt = out.permute(b, swap_last(r), loc);
  Shape shape = bt->shape;
  shape[static_cast<size_t>(r - 2)] = np;
  shape[static_cast<size_t>(r - 1)] = kp;
  const Node* c = padded_copy(out, bt, shape, loc);
  return c != bt || k_contiguous(b) ? c : out.unary(Op::Copy, bt, loc);
}

std::unique_ptr<Graph> gemm_align(const Graph& g) {
  return rewrite_graph(g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    bool half = old->dtype == DType::Float16 || old->dtype == DType::BFloat16;
    if (old->op != Op::Matmul || (old->dtype != DType::Float32 && !half)) return rebuild(out, old, src);
    const Node* a = old->src[0];
    const Node* b = old->src[1];
    int ra = a->rank(), rb = b->rank(), ro = old->rank();
    int64_t m = old->shape[static_cast<size_t>(ro - 2)], n = old->shape.back(), k = a->shape.back();
    int64_t kp = gemm_aligned(k, m, n, k, old->dtype), np = gemm_aligned(n, m, n, k, old->dtype);
    // (A is copied when K is padded; B when K or N is. torch.mm(a.t(), b.t()) at 3001 x 4097 x 2999 ran 0.44x
    // cuBLAS with its transposed operands left misaligned, the session-10 suite.)
    bool pad = kp != k || np != n;
    bool k_major_copy = !half && !pad && m >= kKMajorCopyMinM && n >= kGemmAlignMinReuse &&
                        k >= kGemmAlignMinReuse && !k_contiguous(b);
    if ((!pad && !k_major_copy) || !strided(a, kp == k) || !strided(b, false)) return rebuild(out, old, src);
    // K is padded on both sides (zero columns of A meet zero rows of B); B's K and N in one copy, K-major for
    // fp32 (16-bit B keeps its layout: the 16-bit tensor-core instructions take either).
    Shape a_shape = src[0]->shape;
    a_shape[static_cast<size_t>(ra - 1)] = kp;
    const Node* a2 = padded_copy(out, src[0], a_shape, old->loc);
    Shape b_shape = src[1]->shape;
    b_shape[static_cast<size_t>(rb - 2)] = kp;
    b_shape[static_cast<size_t>(rb - 1)] = np;
    const Node* b2 = half ? padded_copy(out, src[1], b_shape, old->loc)
                          : out.permute(k_major_stored(out, src[1], kp, np, old->loc), swap_last(rb), old->loc);
    const Node* c = out.matmul(a2, b2, old->loc);
    return np != n ? out.slice(c, ro - 1, 0, n, 1, old->loc) : c;
  });
}

}  // namespace tz
