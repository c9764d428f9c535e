// Element types: names and PyTorch's promotion lattice.
#include "graph/dtype.h"

namespace tz {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::Int32: return "i32";
    case DType::Int64: return "i64";
    case DType::Float16: return "f16";
    case DType::BFloat16: return "bf16";
    case DType::Float32: return "f32";
    case DType::Float64: return "f64";
  }
  return "?";
}

const char* torch_dtype_name(DType t) {
  switch (t) {
    case DType::Bool: return "torch.bool";
    case DType::Int32: return "torch.int32";
    case DType::Int64: return "torch.int64";
    case DType::Float16: return "torch.float16";
    case DType::BFloat16: return "torch.bfloat16";
    case DType::Float32: return "torch.float32";
    case DType::Float64: return "torch.float64";
  }
  return "?";
}

const char* triton_dtype_name(DType t) {
  switch (t) {
    case DType::Bool: return "tl.int1";
    case DType::Int32: return "tl.int32";
    case DType::Int64: return "tl.int64";
    case DType::Float16: return "tl.float16";
    case DType::BFloat16: return "tl.bfloat16";
    case DType::Float32: return "tl.float32";
    case DType::Float64: return "tl.float64";
  }
  return "?";
}

int dtype_size(DType t) {
  switch (t) {
    case DType::Bool: return 1;
    case DType::Int32: return 4;
    case DType::Int64: return 8;
    case DType::Float16: return 2;
    case DType::BFloat16: return 2;
    case DType::Float32: return 4;
    case DType::Float64: return 8;
  }
  return 0;
}

bool is_floating(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}
bool is_integral(DType t) { return t == DType::Int32 || t == DType::Int64; }

DType promote(DType a, DType b) {
  if (a == b) return a;
  // f16 with bf16 promotes to f32, as in PyTorch.
  if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16)) {
    return DType::Float32;
  }
  auto rank = [](DType t) { return static_cast<int>(t); };  // enum order is the lattice order otherwise
  return rank(a) > rank(b) ? a : b;
}

}  // namespace tz
