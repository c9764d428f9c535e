// decompose: rewrites composite ops into primitives, so that fusion and lowering see only pointwise ops,
// reductions, views and matmuls. After it, no node of kind Composite remains; half-precision composites
// compute in float32 and round once at the end, as PyTorch does. A reduction whose only operand is the same
// reduction over other axes is one reduction over the union of the axes (where exact or more accurate).
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

std::unique_ptr<Graph> decompose(const Graph& g);

}  // namespace tz
