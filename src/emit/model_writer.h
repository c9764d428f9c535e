// ModelNew writer: prints the whole generated file — imports, kernels, one launcher per kernel, and ModelNew
// (init replay, input checks, launches). It prints what the trace and the forward plan say; it decides nothing.
#pragma once

#include <string>

#include "graph/graph.h"
#include "kernel/tile.h"
#include "trace/trace.h"

namespace tz {

std::string write_model(const TraceResult& trace, const Graph& graph, const ForwardPlan& plan,
                        const std::string& source_name);

}  // namespace tz
