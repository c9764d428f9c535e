// The tile IR: what one Triton program does. A Kernel is a parameter list and a body of statements over
// expression trees whose operators map one-to-one onto Triton (`tl.load`, `tl.arange`, `tl.dot`, arithmetic).
// Kernel lowering (kernel/lower_*.cpp) makes every decision — tiling, masks, precision, fusion order — and the
// printer (emit/triton_printer.cpp) turns this IR into text without deciding anything.
//
// Besides kernels, lowering produces the forward plan: the buffers to allocate and the launches to make, in
// order, each launch naming its grid and arguments as Python expressions over the forward's variables.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/dtype.h"

namespace tz {

enum class TOp {
  // leaves
  Var,        // name
  Int,        // ival
  Float,      // fval
  // arithmetic and comparison (binary, infix)
  Add, Sub, Mul, Div, FloorDiv, Mod, Lt, Le, Gt, Ge, Eq, Ne, And, Or,
  // unary
  Neg, Not,
  // Triton calls
  ProgramId,  // tl.program_id(ival)
  NumPrograms,  // tl.num_programs(ival)
  Arange,     // tl.arange(0, args[0])
  Load,       // tl.load(args[0], mask=args[1]?, other=args[2]?)   (mask/other may be absent; name "volatile":
              //   volatile=True, a value another program writes during the kernel)
  AtomicAdd,  // tl.atomic_add(args[0], args[1], sem=name): the old value
  Where,      // tl.where(c, a, b)
  Maximum, Minimum,
  NanMaximum, NanMinimum,  // tl.maximum(a, b, propagate_nan=ALL): NaN wins, as in PyTorch (floats)
  Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Sigmoid, Erf, Abs, Floor, Ceil,
  Cast,       // args[0].to(dtype), or args[0].to(args[1]) when a second operand gives the type
  Sum, Max, Min, Prod, ArgMax, ArgMin,  // tl.sum(args[0], axis=ival); Prod uses a combine function
  NanMax, NanMin,  // a float max/min that keeps NaN (tl.max drops it on the GPU): tl.reduce with _nan_max/_nan_min
  Cumsum, Cumprod,  // tl.cumsum(args[0], axis=ival, reverse=name == "reverse")
  Dot,        // tl.dot(a, b, acc, input_precision=args[3])
  Zeros,      // tl.zeros(shape_text, dtype)
  Full,       // tl.full(shape_text, args[0], dtype)
  Expand,     // args[0][text], text = ":, None" (broadcast a tile along new axes)
  Cdiv,       // tl.cdiv(a, b)
  ElementTy,  // args[0].dtype.element_ty (the pointee type of a pointer)
  Min2,       // min(a, b) on scalars (Python builtin inside jit code)
  Call,       // name(args...): a Triton function (tl.reshape, tl.gather) or a @triton.jit helper of the file
              //   (see Kernel's needs_* flags); shape or tuple arguments are Var texts
};

struct TExpr {
  TOp op;
  std::string name;   // Var; Expand index text; Zeros/Full shape text; "reverse" on a reverse scan
  int64_t ival = 0;   // Int; ProgramId axis; reduction axis
  double fval = 0.0;  // Float
  DType dtype = DType::Float32;  // Cast, Zeros, Full
  std::vector<const TExpr*> args;
};

enum class TStmtKind { Assign, Store, For, While, If, Barrier, Comment, Blank };  // Barrier: tl.debug_barrier()

struct TStmt {
  TStmtKind kind;
  std::string var;                 // Assign target; For loop variable
  const TExpr* value = nullptr;    // Assign value; Store value; While, If condition
  const TExpr* ptr = nullptr;      // Store pointer
  const TExpr* mask = nullptr;     // Store mask (may be null)
  const TExpr* start = nullptr;    // For range(start, stop, step)
  const TExpr* stop = nullptr;
  const TExpr* step = nullptr;
  bool unroll = false;             // For: tl.static_range (unrolled at compile time) instead of range
  std::string text;                // Comment
  std::vector<TStmt> body;         // For, While, If
};

enum class ParamKind { Pointer, Int, Constexpr };

struct KernelParam {
  std::string name;
  ParamKind kind;
};

struct Kernel {
  std::string name;
  std::vector<std::string> source_comments;  // e.g. "model.py:13  y = F.gelu(self.fc(x))"
  std::vector<KernelParam> params;
  std::vector<TStmt> body;
  bool needs_mul_combine = false;  // a Prod reduction: the printer emits the combine function once
  bool needs_nan_combine = false;  // a NanMax/NanMin reduction: _nan_max and _nan_min, printed once
  bool needs_num_sms = false;      // its launch sizes a persistent grid by the multiprocessor count
  bool needs_round_tf32 = false;   // calls _round_tf32 (Op::RoundTf32): the printer emits the helper once
  bool needs_expm1 = false;        // calls _expm1 (Op::Expm1), printed once
  bool needs_log1p = false;        // calls _log1p (Op::Log1p), printed once
  bool needs_round = false;        // calls _round_half_even (Op::Round), printed once
  bool needs_fmod = false;         // calls _fmod (Op::Fmod), printed once
  bool needs_div_by_number = false;  // calls _div_by_number (Op::DivByNumber), printed once
  bool needs_sixth = false;        // calls _sixth (Op::Sixth), printed once
  bool needs_tf32_split = false;   // fp32 three-dot products: _tf32_hi and _dot_tf32x3, printed once
  bool needs_aten_scan_tile = false;  // it scans tiles in ATen's CUDA order: the printer emits _aten_scan_tile
  bool needs_coop = false;         // cooperative rows: _coop_split, _coop_programs, _zero_counts_kernel
};

// Owns tile expressions. Lowering builds through it; no sharing across files.
class TileArena {
 public:
  const TExpr* make(TExpr e) {
    exprs_.push_back(std::make_unique<TExpr>(std::move(e)));
    return exprs_.back().get();
  }

 private:
  std::vector<std::unique_ptr<TExpr>> exprs_;
};

// One argument of a launch: a Python expression (a buffer variable, a size) bound to a kernel parameter.
struct LaunchArg {
  std::string param;
  std::string value;
};

struct Launch {
  int kernel = 0;                    // index into ForwardPlan::kernels
  std::vector<std::string> setup;    // Python statements run by the launcher before the launch
  std::vector<std::string> grid;     // Python expressions, one per grid axis
  std::vector<LaunchArg> args;
  std::vector<std::string> produces;  // buffers this launch writes (allocated by its launcher)
  int num_warps = 4;
  int num_stages = 0;                // 0 = Triton's default
  bool fp_fusion = true;             // false: enable_fp_fusion=False (no a * b + c contracted into an fma)
  std::vector<std::string> scratch;  // pointer arguments the setup allocates (not launcher parameters)
  // Cooperative rows: the grid is as many programs as fit on the GPU at once (_coop_programs, from the compiled
  // kernel), for coop_tiles tiles in groups of coop_groups (Python expressions); empty: a plain grid.
  std::string coop_tiles, coop_groups;
  // A counter array the kernel leaves zeroed (split rows: the last program of a row finishes it): int32 of
  // counter_size elements, held by ModelNew (a non-persistent buffer zeroed once in __init__) and passed to the
  // kernel parameter counter_param. Empty: none.
  std::string counter_param;
  int64_t counter_size = 0;
};

struct BufferAlloc {
  std::string name;   // Python variable in forward
  std::vector<int64_t> shape;
  DType dtype;
  std::string like;   // a forward input whose device to use
};

// What ModelNew.forward does: check inputs, allocate, launch, return.
struct ForwardPlan {
  std::vector<Kernel> kernels;
  std::vector<BufferAlloc> buffers;
  std::vector<Launch> launches;          // in execution order; buffers are allocated before first use
  std::vector<std::string> results;      // Python expressions for the returned tensors (views of buffers)
  bool result_is_tuple = false;
  bool uses_matmul_precision = false;    // forward computes `precision` from PyTorch's fp32 matmul flag
  bool uses_conv_precision = false;      // a launcher computes `conv_precision` from cuDNN's TF32 flag
};

}  // namespace tz
