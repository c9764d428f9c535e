// Pooling: F.max_pool{1,2,3}d, F.avg_pool{1,2,3}d, F.adaptive_{max,avg}_pool{1,2,3}d and their nn modules.
// One table of the twelve spellings (their parameters in PyTorch's order, which differs between a function and
// its module), PyTorch's checks and output-size rule, then one graph node (max_pool, avg_pool, adaptive_*).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "trace/interp.h"

namespace tz::tracer {

enum class PoolKind { Max, Avg, AdaptiveMax, AdaptiveAvg };

struct PoolSpec {
  PoolKind kind;
  int dims;                               // pooled trailing dims: 1, 2 or 3
  std::string function;                   // "max_pool2d" (torch.nn.functional and, for some, torch)
  std::string module;                     // "MaxPool2d"
  std::vector<std::string> fn_params;     // after `input`, "name=" when optional
  std::vector<std::string> module_params;
};

const std::vector<PoolSpec>& pool_specs();
const PoolSpec* find_pool_module(const std::string& module);
// PyTorch's default of an optional pooling parameter (stride None, padding 0, dilation 1, ...).
Value pool_default(const std::string& param);

// Pools `x`; `option(name)` gives each parameter of the spec by name (its default when not given).
Value t_pool(Interp& in, const PoolSpec& spec, const Value& x, const std::function<Value(const std::string&)>& option,
             SourceLoc loc);

// Registers the functional spellings (torch.nn.functional.* and the torch.* aliases PyTorch has).
void register_pooling(Interp& in);

}  // namespace tz::tracer
