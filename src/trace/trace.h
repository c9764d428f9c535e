// The tracer: a Python-subset interpreter that runs a module file's top-level code, get_init_inputs(), the
// module's __init__ (recording parameters and an exact replay of their random draws), get_inputs() (shapes and
// dtypes only: random tensors are never materialised) and traces forward() into the tensor graph.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "graph/graph.h"
#include "support/diagnostics.h"

namespace tz {

struct TraceOptions {
  std::string class_name = "Model";
  // --set NAME=VALUE: module-level constants overridden after the file's top level ran (VALUE is a Python
  // literal: int, float, True/False, None, a string, or a tuple/list of those).
  std::map<std::string, std::string> overrides;
};

// ModelNew.__init__ replay: straight-line Python that creates the same parameters and buffers, with the same
// names, shapes and random draws in the same order as the original __init__ (nn.Linear is replayed as its
// parameters plus nn.init calls). Lines are indented relative to the method body.
struct InitReplay {
  std::string signature;               // parameters after self, as written: "in_features, out_features=10"
  std::vector<std::string> arg_names;  // the constructor's parameter names, in order (no *args/**kwargs)
  std::vector<std::string> arg_values; // the values traced for them, as Python literals
  std::vector<std::string> lines;      // body lines; may be comments
};

struct TraceResult {
  std::unique_ptr<Graph> graph;        // inputs (named after forward's parameters), params, outputs
  InitReplay init;
  std::vector<std::string> forward_params;  // forward's parameter names (after self)
  // forward's number arguments (name, Python literal) as get_inputs() gave them: the kernels bake them in
  std::vector<std::pair<std::string, std::string>> forward_scalars;
  // Submodules (state_dict prefix) whose kernels depend on the training flag traced for them.
  std::vector<std::pair<std::string, bool>> mode_checks;
  std::string source_path;
};

// Throws UserError (with a location in the module file) for anything outside the supported subset.
TraceResult trace(const ast::Module& module, const TraceOptions& options);

// The PyTorch API the tracer knows, sorted: functions and nn module classes by their qualified names
// ("torch.logsumexp", "torch.nn.functional.pad", "torch.nn.GLU") and Tensor methods as "Tensor.chunk". Knowing a
// name is not accepting every use of it: unsupported options and shapes are located errors.
std::vector<std::string> supported_api();

}  // namespace tz
