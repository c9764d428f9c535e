// matmul_tiles: see matmul_tiles.h.
#include "kernel/matmul_tiles.h"

#include <algorithm>

#include "kernel/lower_kinds.h"

namespace tz {

MatmulTiles matmul_tiles(int64_t m, int64_t n, int64_t k, DType t, bool split_k_major) {
  bool half = t == DType::Float16 || t == DType::BFloat16;
  bool wide = half || (kSplitKWideTiles && split_k_major);
  // Tiles measured on the H200 (docs/RESULTS.md, tests/gpu/gemm_experiment.py): fp32's tf32x3 (three dots per
  // step) runs best with 128 x 64 tiles, 4 warps and 4 stages (1.13-1.19x cuBLAS fp32 where 128 x 128 with 8 warps
  // gave 0.70-0.73x, B N-major); fp16/bf16 keep 128 x 128, and so do split fp32 products with K-major B
  // (kSplitKWideTiles).
  MatmulTiles r{};
  r.block_m = std::clamp<int64_t>(next_pow2(m), 16, 128);
  r.block_n = std::clamp<int64_t>(next_pow2(n), 16, wide ? 128 : 64);
  r.block_k = std::clamp<int64_t>(next_pow2(k), 16, half ? 64 : 32);
  // A 16-bit product whose K is one block is its output store: 4 warps, one stage, and tiles of at most 2^19
  // BLOCK_M * BLOCK_N * BLOCK_K (measured on the H200 with tests/gpu/store_bound_experiment.py, kernel alone:
  // bf16 [128, 4096, 24] @ [128, 24, 2048] 0.605 ms with [128, 128] on 4 warps against 0.746 ms on 8 warps and 3
  // stages, eager 0.676 ms; fp16 [32768, 64] @ [64, 32768] 0.938 ms with [64, 128] on 4 warps against 1.046 ms
  // as [128, 128] on 8 warps and 1.097 ms as [128, 128] on 4; one stage alone changed nothing).
  bool store_bound = half && k <= r.block_k;
  while (store_bound && r.block_m > 16 && r.block_m * r.block_n * r.block_k > (int64_t{1} << 19))
    r.block_m /= 2;
  r.num_warps = r.block_m * r.block_n >= 128 * 128 ? 8 : 4;
  r.num_stages = wide ? 3 : 4;
  if (store_bound) {
    r.num_warps = 4;
    r.num_stages = 1;
  }
  return r;
}

}  // namespace tz
