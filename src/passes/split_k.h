// split_k: an fp32 matrix product with a long K and few output tiles (gemm_large_k: 509 x 383 outputs over
// K = 196613) gives each of its few programs the whole K loop: on the H200 24 programs ran 12.0 ms against
// cuBLAS's 1.6 ms (0.13x, the session-10 suite), most multiprocessors idle. Such a product becomes S partial
// products over K / S each, a batched matmul of [S, M, K/S] x [S, K/S, N] views of the operands, and a sum of
// the S partials in fp32. B is read K-major (stored [N, K], K contiguous: TF32 wgmma takes 32-bit operands only
// K-major in shared memory), copied so unless it already is (x @ w.t() reads w as it is); where K is not a
// multiple of 4 S, A and B are zero-padded copies with K rounded up to 32 S (chunks of whole BLOCK_K steps), B's
// copy also padding N as gemm_align would. S is the integer that gives at most kSplitKPrograms programs (tiles
// counted as lower_matmul tiles the partial products, kernel/matmul_tiles.h), with chunks of at least
// kSplitKMinChunk. Measured on the H200 (gemm_experiment.py --only largek): gemm_large_k 2.48 ms N-major at S = 16
// against 1.315 ms K-major at 264 programs (cuBLAS 1.548); gemm_large_k_bt 23.3 ms with a transposing copy of w
// against 10.58 ms K-major, 128 x 128 tiles, 260 programs (cuBLAS 16.53). 2-D fp32 products only: a 16-bit
// product's partials would be rounded to 16 bits (the matmul node's type), which cuBLAS's fp32 split-K avoids.
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

constexpr int64_t kSplitKPrograms = 264;    // aim: two programs per multiprocessor of an H200 (132)
constexpr int64_t kSplitKMinChunk = 4096;   // K per partial product at least
constexpr const char* kSplitKAttr = "split_k";  // attr.str of the partial products' matmul (lower_matmul's tiles)

std::unique_ptr<Graph> split_k(const Graph& g);

}  // namespace tz
