// sink_reshape: pointwise ops applied to a reshaped computed value are applied before the reshape, so that
// they fuse into the kernel that computes the value (a group norm computed as [N, G, C/G, S] and an
// activation applied to its [N, C, H, W] view run as one kernel), and a permuted input merged across its permuted
// dims is not copied before the pointwise ops that read it. After it, no pointwise op reads only
// reshapes of computed (non-view) values of one shape, and a pointwise op or a sum/prod/max/min reading a
// reshape that splits or merges dims of a computed pointwise value (or of a permuted input that strides cannot
// merge) runs in the common refinement of both shapes, wherever its other sources can be split to it without
// a copy: the value's producer and its consumer share a kernel. A pointwise op reading a broadcast of a
// reduction computed over a coarser view of its shape (x - x.view(b, c, h * w).mean(2).view(b, c, 1, 1)) runs in
// that coarser space instead, where its other sources merge to it without a copy: it joins the reduction's kernel.
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

std::unique_ptr<Graph> sink_reshape(const Graph& g);

}  // namespace tz
