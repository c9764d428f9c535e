// The tiles and launch options of a matrix product's kernel, decided from its shape and type alone, so that
// lower_matmul (which uses them) and split_k (which counts the output tiles to pick its split) agree.
#pragma once

#include <cstdint>

#include "graph/node.h"

namespace tz {

// Split-K partial products of fp32 (tf32x3) whose B is K-major run on 128 x 128 x 32 tiles, 8 warps, 3 stages
// (measured on the H200, gemm_large_k_bt at 260 programs: 10.58 ms against 14.9 ms for 128 x 64 / 4 warps /
// 4 stages at 120 programs, cuBLAS 16.53 ms; with N-major B the same tile ran 20.8-35 ms). false: such products
// keep fp32's 128 x 64 tiles (gemm_large_k at 264 programs, K-major B: 1.315 ms, cuBLAS 1.548 ms).
constexpr bool kSplitKWideTiles = true;

struct MatmulTiles {
  int64_t block_m, block_n, block_k;
  int num_warps, num_stages;
};

// An M x N product over K of type t. `split_k_major`: a split-K partial product (the matmul split_k builds)
// whose B operand is contiguous along K.
MatmulTiles matmul_tiles(int64_t m, int64_t n, int64_t k, DType t, bool split_k_major);

}  // namespace tz
