// gemm_align: an fp32 GEMM whose rows are not 16-byte aligned (K or N like 4999) loses vector loads twice: row
// starts are misaligned, and the K and N bounds (masks, `% N`) are multiples of nothing, which Triton's
// contiguity analysis needs (measured on the H200: gemm_mm_odd, 3001x4999x1999, 0.36x cuBLAS). Such a GEMM runs
// on zero-padded copies of its operands (K and N rounded up to 16 bytes; the zeros add nothing) and its result is
// the unpadded slice of a padded product. The copies move the operands' bytes a few times; the GEMM reads them
// once per tile of the other side, so this is done only for large GEMMs (every side >= kGemmAlignMinReuse).
// 16-bit GEMMs only when a row is not even 4-byte aligned (an odd K or N: gemm_mm_irregular_fp16, 6007 x 9001 x
// 7919, ran 0.69x eager unpadded, 12% of the tensor-core peak); one 8-byte aligned (gemm_bmm_bf16, N = 1500) ran at
// 1.9x eager as it is.
// The copy of B is K-major (stored [..., Np, Kp], K contiguous; TF32 wgmma takes 32-bit operands only K-major in
// shared memory): a transposed B (x @ w.t()) is padded as it lies, a row-major one transposed by its copy. An
// aligned fp32 GEMM whose B is N-contiguous gets a K-major copy of B too when it is large enough
// (kKMajorCopyMinM).
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

constexpr int64_t kGemmAlignMinReuse = 256;  // M, N and K all at least this
// An fp32 GEMM that needs no padding but whose B is N-contiguous ([K, N] row-major) reads a K-major copy of B
// when M (the rows that reuse each B element: flops per B byte = M / 2) is at least this, N and K at least
// kGemmAlignMinReuse and A row-major. Set it to INT64_MAX to turn the copy off (A/B: on the H200, K-major B
// made gemm_large_k's split product 1.654 ms against 2.48 ms N-major at S = 16; aligned GEMMs not yet measured).
constexpr int64_t kKMajorCopyMinM = 256;

std::unique_ptr<Graph> gemm_align(const Graph& g);

// The extent gemm_align gives a dim of `size` elements (K or N) of an M x N x K product of type t: `size` rounded
// up to 16 bytes when rows of that size are misaligned and the product is large enough to pay for the copies,
// else `size`. (split_k, which runs first and copies B anyway, pads N to it in the same copy.)
int64_t gemm_aligned(int64_t size, int64_t m, int64_t n, int64_t k, DType t);

// x zero-padded at the end of each dim to `shape` (no smaller than x's) by one copy kernel: a pad per dim that
// grows, all under the one copy, so that no operand is padded by a copy of a copy. x itself when nothing grows.
const Node* padded_copy(Graph& out, const Node* x, const Shape& shape, SourceLoc loc);

// B ([..., K, N], a strided view) stored K-major, zero-padded to K = kp and N = np: a node of shape
// [..., np, kp] contiguous along kp in memory (transpose it back for the product). B's own memory seen through a
// view when it already is so laid out and nothing grows; else one copy (a pad copy of a transposed B, a
// transposing copy of a row-major one).
const Node* k_major_stored(Graph& out, const Node* b, int64_t kp, int64_t np, SourceLoc loc);

}  // namespace tz
