// Views: how chains of view ops (reshape, permute, expand) read memory. Two questions, answered once here
// for fusion and for kernel lowering alike:
//  - strides: given a chain of views over a contiguous buffer, the strides of the final view (or failure,
//    when a reshape would need a copy, as torch.Tensor.view fails);
//  - dim maps: how the dims of a view relate to the dims of its source, for values computed inside a kernel.
#pragma once

#include <optional>
#include <vector>

#include "graph/node.h"

namespace tz {

// Follows view ops down to the first non-view node.
const Node* view_root(const Node* n);

// Strides and element offset of `n` (a chain of views over view_root(n)) assuming the root is contiguous:
// flips give negative strides, slices and pads an offset. False when some reshape in the chain cannot be
// expressed as a strided view, or a view other than a pad sits on top of a pad.
bool view_layout(const Node* n, std::vector<int64_t>& strides, int64_t& offset);

// A pad view's reads are zero outside its source: the dim and the half-open range of valid indices.
struct PadRange {
  int dim;
  int64_t lo, hi;
};
// The pads at the top of a view chain, outermost first (none when `n` is not a pad). Pads sit only on top of a
// chain: a pad of a pad (gemm_align's copy that pads two dims) is the one view allowed above a pad.
std::vector<PadRange> view_pads(const Node* n);

// torch.cat of two pieces as the tracer writes it, add(pad(a), pad(b)), seen piece by piece: each piece covers
// indices [lo, hi) of the cat's `dim` with its root's indices [start, start + hi - lo) (the root read through
// slices along `dim` with step 1), or is a constant (its root an Op::Const, read through any views). False when
// `cat` is not such an add: the two ranges disjoint and covering the dim, every root shaped like the cat off `dim`.
struct CatPiece {
  int dim;
  int64_t lo, hi;
  const Node* root;
  int64_t start;
};
bool cat_pieces(const Node* cat, std::vector<CatPiece>& pieces);

// Strides of `n`, as view_layout without the offset.
bool view_strides(const Node* n, std::vector<int64_t>& strides);

// Strides for viewing (shape, strides) as new_shape without a copy, PyTorch's rule. False when impossible.
bool reshape_strides(const Shape& shape, const std::vector<int64_t>& strides, const Shape& new_shape,
                     std::vector<int64_t>& out);

// A dim map says, for each dim of a value, which dim of the kernel's iteration space indexes it (-1: the
// value is broadcast along it / has size 1). Given the map of a view, computes the map of its source; false
// when the view mixes dims (a reshape that merges or splits non-unit dims) or moves indices (a flip, a pad,
// a slice that does not start at 0 with step 1).
bool view_source_map(const Node* view, const std::vector<int>& map, std::vector<int>& src_map);

// The map of a broadcasting operand `operand` of a pointwise node shaped `out` whose map is `map`.
std::vector<int> broadcast_map(const Shape& operand, const Shape& out, const std::vector<int>& map);

}  // namespace tz
