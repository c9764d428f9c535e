// gemm_align: a GEMM operand whose rows start at addresses that are not 16-byte aligned (fp32 rows of 4999
// elements, say) cannot be read with vector loads, and the GEMM runs at a fraction of its speed (measured on
// the H200: gemm_mm_odd, 3001x4999x1999 fp32, 0.36x cuBLAS). Such an operand is copied once per forward into a
// buffer whose rows are zero-padded to a multiple of 16 bytes, and the GEMM reads the unpadded part of it
// through a slice. The copy moves the operand's bytes twice; the GEMM reads them once per tile of the other
// side, so the copy is made only when that side is long (kGemmAlignMinReuse) and the operand is not tiny.
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

constexpr int64_t kGemmAlignMinReuse = 256;        // the other side's length (N for the left operand, M for the right)
constexpr int64_t kGemmAlignMinElements = 1 << 16;  // operands smaller than this are read as they are

std::unique_ptr<Graph> gemm_align(const Graph& g);

}  // namespace tz
