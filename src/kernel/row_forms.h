// The row lengths at which lower_reduction changes how it reads a row that its kernel reads more than once (a
// norm's statistics and its output, a softmax), shared with decompose: its normalisation statistics are cut
// into chunks only where the reduction kernel would otherwise read a row from memory more than once.
#pragma once

#include <cstdint>

namespace tz {

// Held whole in registers up to this many elements (on 32 warps past 16384); measured in lower_reduction.cpp.
constexpr int64_t kHeldRowMax = 32768;
// From this many: cooperative rows (programs that run together each hold a chunk); in between, looped rows that
// are read again from L2.
constexpr int64_t kCoopRowMin = 40000;

}  // namespace tz
