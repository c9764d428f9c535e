// Tensor element types and PyTorch's type-promotion rules.
#pragma once

#include <string>

namespace tz {

enum class DType { Bool, Int32, Int64, Float16, BFloat16, Float32, Float64 };

const char* dtype_name(DType t);         // "f32", ... (graph dumps)
const char* torch_dtype_name(DType t);   // "torch.float32", ...
const char* triton_dtype_name(DType t);  // "tl.float32", ...
int dtype_size(DType t);
bool is_floating(DType t);
bool is_integral(DType t);  // bool excluded

// Result type of a binary op between two tensors (both dimensioned, PyTorch's category rule).
DType promote(DType a, DType b);

}  // namespace tz
