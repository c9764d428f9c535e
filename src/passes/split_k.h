// split_k: an fp32 matrix product with a long K and few output tiles (gemm_large_k: 509 x 383 outputs over
// K = 196613) gives each of its few programs the whole K loop: on the H200 24 programs ran 12.0 ms against
// cuBLAS's 1.6 ms (0.13x, the session-10 suite), most multiprocessors idle. Such a product becomes S partial
// products over K / S each, a batched matmul of [S, M, K/S] x [S, K/S, N] views of the operands (K zero-padded
// to a multiple of 4 S by a copy when it is not; that copy of B also pads N as gemm_align would), and a sum of
// the S partials in fp32. S is the power of two that gives about kSplitKPrograms output tiles, with chunks of
// at least kSplitKMinChunk. 2-D fp32 products only: a 16-bit product's partials would be rounded to 16 bits (the
// matmul node's type), which cuBLAS's fp32 split-K avoids. (Not yet measured on the GPU: next session's A/B
// decides.)
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

constexpr int64_t kSplitKTile = 128;        // the output tile side the matmul kernel uses for large products
constexpr int64_t kSplitKPrograms = 256;    // aim: about two programs per multiprocessor of an H200
constexpr int64_t kSplitKMinChunk = 4096;   // K per partial product at least

std::unique_ptr<Graph> split_k(const Graph& g);

}  // namespace tz
