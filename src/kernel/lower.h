// Kernel lowering: the schedule -> tile-IR kernels and the forward plan (buffers, launches, results).
// All tiling, masking and precision decisions are made here (and in the per-kind lowerings).
#pragma once

#include <string>
#include <vector>

#include "kernel/tile.h"
#include "passes/schedule.h"

namespace tz {

struct LowerOptions {
  std::vector<std::string> input_names;  // forward's parameter names, in order
  std::string source_name;               // "model.py", for the comments naming source lines
};

ForwardPlan lower(const Schedule& s, TileArena& arena, const LowerOptions& options);

}  // namespace tz
