// Loss functions and the distances they use, in their F.<function> and nn.<Module> spellings: mse, l1,
// huber, smooth_l1, kl_div, cross_entropy (class indices or probabilities), triplet_margin, cosine_embedding,
// cosine_similarity, pairwise_distance. Each traces straight to primitive graph ops (pointwise math, sums,
// max, and an iota to pick the target class), so fusion and the split reduction see them like hand-written
// formulas.
#pragma once

#include <string>
#include <vector>

#include "trace/interp.h"

namespace tz::tracer {

// One scalar option of a loss, after its tensor arguments, in PyTorch's argument order.
struct LossOption {
  const char* name;
  char kind;            // 'n' None (size_average, reduce, weight), 'b' bool, 'i' int, 'f' float, 's' str
  double number;        // the default of 'b', 'i', 'f'
  const char* text;     // the default of 's'
  bool in_module;       // the nn module takes it too (F.mse_loss's weight= has no module counterpart)
  const char* attr;     // the module attribute that keeps it (PairwiseDistance keeps p as `norm`)
};

struct LossSpec {
  const char* function;              // F.<function>
  const char* module;                // nn.<module>
  std::vector<const char*> tensors;  // forward tensor arguments
  std::vector<LossOption> options;
};

const std::vector<LossSpec>& loss_specs();
const LossSpec* find_loss_module(const std::string& module);
Value loss_default(Interp& in, const LossOption& o);

// The loss of `spec` on its tensor arguments; `opts` holds one value per option of the spec (None where the
// option is absent). Checks every option and reports what is not supported with a located error.
Value t_loss(Interp& in, const LossSpec& spec, const std::vector<Value>& tensors, const std::vector<Value>& opts,
             SourceLoc loc);

// F.<function> for every spec, in the registry.
void register_losses(Interp& in);

}  // namespace tz::tracer
