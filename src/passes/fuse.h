// fuse: partitions the decomposed graph into kernels. Pointwise chains fuse into one kernel; pointwise
// producers and consumers fuse into reductions over the same space (softmax is one kernel); pointwise
// epilogues fuse into the matmul that feeds them. A value crossing kernels is materialized.
#pragma once

#include "graph/graph.h"
#include "passes/schedule.h"

namespace tz {

Schedule fuse(std::unique_ptr<Graph> g);

}  // namespace tz
