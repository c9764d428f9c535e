// split_reduce: a reduction with few outputs and a long reduced extent would run on a handful of programs;
// it is split into two reductions so that the first spreads over many programs. After it, no reduction
// keeps fewer than kMinRows rows while reducing more than kLongRow elements, where a split is possible
// (the reduced extent has a suitable divisor). Integer argmax/argmin over a long trailing dim with few rows are
// split into chunks of a fixed size plus a tail, with PyTorch's first-index rule kept exactly; floating ones are
// left whole, for the reduction kernel's split rows (kernel/lower_reduction.cpp: one launch, the last program
// of a row combines the chunks).
#pragma once

#include <memory>

#include "graph/graph.h"

namespace tz {

std::unique_ptr<Graph> split_reduce(const Graph& g);

// Whether split_reduce splits a reduction over `row` trailing elements with `rows` rows (when the row has a
// suitable divisor): for decompose, whose forms differ when a row's kernel cannot hold it.
bool split_reduce_splits(int64_t rows, int64_t row);

}  // namespace tz
