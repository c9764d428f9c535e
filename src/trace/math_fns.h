// Pointwise math functions traced straight to graph ops with ATen's formulas (UnaryOpsKernel.cpp,
// BinaryOpsKernel.cpp, PointwiseOpsKernel.cpp, Lerp.h in PyTorch 2.11): trunc, frac, round(decimals=),
// log10, sinh, cosh, tan, sign, isnan & co., nan_to_num, logical_xor, lerp, addcmul, addcdiv, and division
// with a rounding mode. floor, ceil, round, log1p, log2 and exp2 are graph ops of their own (the unaries of
// torch_api.cpp); F.logsigmoid is an activation (tensor_ops.cpp, decomposed by passes/decompose).
#pragma once

#include <string>

#include "trace/interp.h"

namespace tz::tracer {

// torch.div(a, b, rounding_mode=mode): "trunc" for floating operands (16-bit ones by a tensor), "floor" as
// t_floor_divide; integer operands and a 16-bit tensor divided by a Python number with "trunc" are located errors.
Value t_div_rounded(Interp& in, const Value& a, const Value& b, const std::string& mode, SourceLoc loc);

// fmod(a, b), remainder(a, b) (Python's %) and floor_divide(a, b) (Python's //) of floating tensors and Python
// numbers, exact as ATen (Op::Fmod), and of integer tensors (C's % and /, corrected as ATen's integer kernels); bool
// operands and an integer division by the number 0 are located errors.
Value t_fmod(Interp& in, const Value& a, const Value& b, SourceLoc loc);
Value t_remainder(Interp& in, const Value& a, const Value& b, SourceLoc loc);
Value t_floor_divide(Interp& in, const Value& a, const Value& b, SourceLoc loc);

}  // namespace tz::tracer
