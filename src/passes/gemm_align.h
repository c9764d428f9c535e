// gemm_align: an fp32 GEMM whose rows are not 16-byte aligned (K or N like 4999) loses vector loads twice: row
// starts are misaligned, and the K and N bounds (masks, `% N`) are multiples of nothing, which Triton's
// contiguity analysis needs (measured on the H200: gemm_mm_odd, 3001x4999x1999, 0.36x cuBLAS). Such a GEMM runs
// on zero-padded copies of its operands (K and N rounded up to 16 bytes; the zeros add nothing) and its result is
// the unpadded slice of a padded product. The copies move the operands' bytes a few times; the GEMM reads them
// once per tile of the other side, so this is done only for large GEMMs (every side >= kGemmAlignMinReuse).
// fp32 only: the 16-bit GEMM measured with misaligned rows (gemm_bmm_bf16, N = 1500) already ran at 1.9x eager.
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

constexpr int64_t kGemmAlignMinReuse = 256;  // M, N and K all at least this

std::unique_ptr<Graph> gemm_align(const Graph& g);

}  // namespace tz
