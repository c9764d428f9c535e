// The longest row that lower_reduction holds whole in registers when its kernel reads the row more than once (a
// norm's statistics and its output, a softmax), shared with decompose: its normalisation statistics over such
// rows are not cut into chunks, so that the statistics and the output share one read of x.
#pragma once

#include <cstdint>

namespace tz {

constexpr int64_t kHeldRowMax = 32768;  // elements (on 32 warps past 16384); measured in lower_reduction.cpp

}  // namespace tz
