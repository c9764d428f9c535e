// Tracer tests: graph dumps of forward, init replay lines, located errors, and a clean trace of the corpus.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/parser.h"
#include "trace/trace.h"

namespace tz {
namespace {

// A parsed file kept alive for as long as the trace that points into it.
struct Source {
  SourceFile file;
  ast::AstArena arena;
  ast::Module module;
};

std::unique_ptr<Source> parse_source(const std::string& text, const std::string& path = "m.py") {
  auto s = std::make_unique<Source>();
  s->file = {path, text};
  Diagnostics diags;
  s->module = parse(s->file, s->arena, diags);
  EXPECT_FALSE(diags.has_errors()) << diags.render();
  return s;
}

struct Traced {
  std::unique_ptr<Source> source;
  TraceResult result;
  std::string graph;     // dump_graph
  std::string init;      // the replay lines, one per line
};

Traced trace_text(const std::string& text, TraceOptions options = {}) {
  Traced t;
  t.source = parse_source(text);
  t.result = trace(t.source->module, options);
  t.graph = dump_graph(*t.result.graph);
  for (const auto& l : t.result.init.lines) t.init += l + "\n";
  return t;
}

// "line:col: message" of the error a trace stops with, or "" when it succeeds.
std::string trace_error(const std::string& text, TraceOptions options = {}) {
  auto s = parse_source(text);
  try {
    trace(s->module, options);
  } catch (const UserError& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.what();
  }
  return "";
}

const char* kHeader =
    "import torch\n"
    "import torch.nn as nn\n"
    "import torch.nn.functional as F\n";

// A module whose forward body is `body` (indented 8), on inputs made by `inputs` (a get_inputs list).
std::string forward_module(const std::string& body, const std::string& inputs, const std::string& init = "") {
  return std::string(kHeader) +
         "class Model(nn.Module):\n"
         "    def __init__(self):\n"
         "        super().__init__()\n" +
         init +
         "    def forward(self, x, y=None):\n" + body +
         "def get_inputs():\n"
         "    return [" + inputs + "]\n"
         "def get_init_inputs():\n"
         "    return []\n";
}

TEST(Trace, LinearGeluExample) {
  std::ifstream f(std::string(TRITONIZE_SOURCE_DIR) + "/examples/linear_gelu.py");
  std::stringstream ss;
  ss << f.rdbuf();
  Traced t = trace_text(ss.str());
  EXPECT_EQ(t.result.init.signature, "in_features, out_features");
  EXPECT_EQ(t.result.init.arg_names, (std::vector<std::string>{"in_features", "out_features"}));
  EXPECT_EQ(t.result.init.arg_values, (std::vector<std::string>{"3000", "2000"}));
  EXPECT_EQ(t.init,
            "# self.fc = nn.Linear(in_features, out_features)\n"
            "self.fc = nn.Module()\n"
            "self.fc.weight = nn.Parameter(torch.empty(2000, 3000))\n"
            "self.fc.bias = nn.Parameter(torch.empty(2000))\n"
            "nn.init.kaiming_uniform_(self.fc.weight, a=math.sqrt(5))\n"
            "bound = 1 / math.sqrt(3000)\n"
            "nn.init.uniform_(self.fc.bias, -bound, bound)\n"
            "# self.scale = nn.Parameter(torch.randn(out_features) * 0.1)\n"
            "_t0 = torch.randn(2000)\n"
            "self.scale = nn.Parameter(_t0 * 0.1)\n");
  EXPECT_EQ(t.graph,
            "input 0 x: f32[1000, 3000]\n"
            "param fc.weight: f32[2000, 3000]\n"
            "param fc.bias: f32[2000]\n"
            "param scale: f32[2000]\n"
            "%0 = input #0 : f32[1000, 3000]\n"
            "%1 = param fc.weight : f32[2000, 3000]\n"
            "%2 = param fc.bias : f32[2000]\n"
            "%3 = permute %1 {1,0} : f32[3000, 2000]\n"
            "%4 = matmul %0 %3 : f32[1000, 2000]\n"
            "%5 = add %4 %2 : f32[1000, 2000]\n"
            "%6 = gelu %5 none : f32[1000, 2000]\n"
            "%7 = param scale : f32[2000]\n"
            "%8 = mul %6 %7 : f32[1000, 2000]\n"
            "return %8\n");
  EXPECT_EQ(t.result.forward_params, (std::vector<std::string>{"x"}));
}

TEST(Trace, Scratch) {
  EXPECT_EQ(trace_error(forward_module("        return x + y\n", "torch.randn(2, 3), torch.randn(4)")), "");
}

// Every corpus problem traces without error.
TEST(Trace, Corpus) {
  namespace fs = std::filesystem;
  int count = 0;
  for (const auto& entry : fs::directory_iterator(std::string(TRITONIZE_SOURCE_DIR) + "/tests/corpus")) {
    const fs::path& p = entry.path();
    if (p.extension() != ".py" || p.filename().string().rfind("verify_", 0) == 0) continue;
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    auto s = parse_source(ss.str(), p.filename().string());
    try {
      TraceResult r = trace(s->module, {});
      EXPECT_FALSE(r.graph->outputs.empty()) << p;
    } catch (const UserError& e) {
      ADD_FAILURE() << format_diagnostic(e.diagnostic());
    }
    ++count;
  }
  EXPECT_GE(count, 40);
}

}  // namespace
}  // namespace tz
