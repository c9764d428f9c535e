// conv_layout: the weights of 16-bit convolutions that reduce channels with tl.dot are read through a copy laid
// out [*k, C_in, C_out] (C_out contiguous), made by one small kernel per forward, so that the conv kernel's
// weight tiles are coalesced loads; their input is read channels-last (copied unless it is so already): a
// gather along NC*spatial positions is 2-byte loads, which Triton cannot pipeline.
//
// fp32 convolutions: under TF32 (cuDNN's default) cuDNN rounds both operands to TF32 to nearest, while a TF32
// tl.dot drops their low mantissa bits (measured: docs/NUMERICS.md). So both operands of an fp32 dot conv are
// read through a round_tf32 (the weight's copy is one), computed by its own kernel before the conv: rounding
// inside the conv's K loop kept its operand tiles from going straight to shared memory and made it 2.6x slower.
// Those copies also choose the layout: TF32 wgmma reads both operands K-major (input channels contiguous) from
// shared memory, and Triton copies a tile that is contiguous along another dim element by element (4-byte
// cp.async, seen in the PTX); so fp32 weights are laid out [*k, C_out, C_in] and the input channels-last.
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

// Groups of at least this many output channels reduce with tl.dot; smaller groups (depthwise) accumulate
// outer products in registers (kernel/lower_conv.cpp). Shared so that both decide alike.
constexpr int64_t kConvMinDotChannels = 8;
bool conv_uses_dot(const Node* conv);

// A 16-bit transposed conv whose kernel equals its stride along every dim, with no padding, dilation or output
// padding, power-of-2 taps (2 to 64 in all): the taps do not overlap, every output takes exactly one,
// out[n, co, i * k + a] = sum_ci x[n, ci, i] * w[ci, co, a], a GEMM of the input positions by the (C_out, taps)
// columns of the weight, which its own [C_in, C_out/g, *k] layout holds contiguously: kernel/lower_conv.cpp
// lowers it so, and conv_layout keeps its weight as it is.
bool unfolded_transposed(const Node* conv);

std::unique_ptr<Graph> conv_layout(const Graph& g);

}  // namespace tz
