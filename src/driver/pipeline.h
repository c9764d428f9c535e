// The compiler pipeline, from module source to the generated Python file.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "support/diagnostics.h"

namespace tz {

enum class EmitStage { Ast, Graph, Kernels, Triton };

struct ConvertOptions {
  std::string class_name = "Model";
  std::map<std::string, std::string> overrides;  // --set NAME=VALUE
  EmitStage emit = EmitStage::Triton;
  std::string dump_after;  // a pass name: print the IR after it to `dump`
  std::function<void(const std::string&)> dump;
};

struct ConvertResult {
  bool ok = false;
  std::string output;       // the text asked for by `emit`
  std::string diagnostics;  // formatted errors when !ok
};

// Never throws for bad input: user errors come back formatted in `diagnostics`.
ConvertResult convert(const SourceFile& file, const ConvertOptions& options);

// The pass names accepted by --dump-after, in pipeline order.
const char* const* pass_names();

}  // namespace tz
