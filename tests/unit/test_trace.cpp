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
  std::string graph;  // dump_graph
  std::string init;   // the replay lines, one per line
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
         init + "    def forward(self, x, y=None):\n" + body +
         "def get_inputs():\n"
         "    return [" +
         inputs +
         "]\n"
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

// The graph dump without the input/param header lines.
std::string body(const std::string& dump) {
  std::string out;
  std::istringstream is(dump);
  for (std::string line; std::getline(is, line);) {
    if (line.rfind("input ", 0) == 0 || line.rfind("param ", 0) == 0) continue;
    out += line + "\n";
  }
  return out;
}

std::string fwd(const std::string& body_src, const std::string& inputs) {
  return body(trace_text(forward_module(body_src, inputs)).graph);
}

TEST(TraceForward, ScalarPromotion) {
  // A Python float keeps a float tensor's dtype; with an int tensor it computes in float32.
  EXPECT_EQ(fwd("        return x * 2.0\n", "torch.randn(4, dtype=torch.float16)"),
            "%0 = input #0 : f16[4]\n"
            "%1 = const 2 : f16[]\n"
            "%2 = mul %0 %1 : f16[4]\n"
            "return %2\n");
  EXPECT_EQ(fwd("        return x * 0.5\n", "torch.randint(0, 10, (4,))"),
            "%0 = input #0 : i64[4]\n"
            "%1 = cast %0 : f32[4]\n"
            "%2 = const 0.5 : f32[]\n"
            "%3 = mul %1 %2 : f32[4]\n"
            "return %3\n");
  EXPECT_EQ(fwd("        return x + 1\n", "torch.randint(0, 10, (4,), dtype=torch.int32)"),
            "%0 = input #0 : i32[4]\n"
            "%1 = const 1 : i32[]\n"
            "%2 = add %0 %1 : i32[4]\n"
            "return %2\n");
  // True division of integers is float32.
  EXPECT_EQ(fwd("        return x / y\n", "torch.randint(0, 9, (3,)), torch.randint(1, 9, (3,))"),
            "%0 = input #0 : i64[3]\n"
            "%1 = input #1 : i64[3]\n"
            "%2 = cast %0 : f32[3]\n"
            "%3 = cast %1 : f32[3]\n"
            "%4 = div %2 %3 : f32[3]\n"
            "return %4\n");
  // 1 - x and 2 ** x put the constant on the left.
  EXPECT_EQ(fwd("        return 1 - 2 ** x\n", "torch.randn(3)"),
            "%0 = input #0 : f32[3]\n"
            "%1 = const 2 : f32[]\n"
            "%2 = pow %1 %0 : f32[3]\n"
            "%3 = const 1 : f32[]\n"
            "%4 = sub %3 %2 : f32[3]\n"
            "return %4\n");
}

TEST(TraceForward, MixedPrecisionAndCasts) {
  EXPECT_EQ(fwd("        return x.float() + y.to(torch.float32).half().to(dtype=torch.float32)\n",
                "torch.randn(2, dtype=torch.bfloat16), torch.randn(2)"),
            "%0 = input #0 : bf16[2]\n"
            "%1 = input #1 : f32[2]\n"
            "%2 = cast %0 : f32[2]\n"
            "%3 = cast %1 : f16[2]\n"
            "%4 = cast %3 : f32[2]\n"
            "%5 = add %2 %4 : f32[2]\n"
            "return %5\n");
  // f16 with bf16 promotes to f32; x.to('cuda') is ignored.
  EXPECT_EQ(fwd("        return x.to('cuda') * y\n", "torch.randn(2).half(), torch.randn(2).bfloat16()"),
            "%0 = input #0 : f16[2]\n"
            "%1 = input #1 : bf16[2]\n"
            "%2 = cast %0 : f32[2]\n"
            "%3 = cast %1 : f32[2]\n"
            "%4 = mul %2 %3 : f32[2]\n"
            "return %4\n");
}

TEST(TraceForward, WhereClampCompare) {
  EXPECT_EQ(fwd("        return torch.where(x > 0, x, 0.1 * x)\n", "torch.randn(3)"),
            "%0 = input #0 : f32[3]\n"
            "%1 = const 0 : f32[]\n"
            "%2 = gt %0 %1 : bool[3]\n"
            "%3 = const 0.1 : f32[]\n"
            "%4 = mul %3 %0 : f32[3]\n"
            "%5 = where %2 %0 %4 : f32[3]\n"
            "return %5\n");
  EXPECT_EQ(fwd("        return torch.clamp(x, min=-1.0, max=2) + x.clamp(max=3.0)\n", "torch.randn(3)"),
            "%0 = input #0 : f32[3]\n"
            "%1 = const -1 : f32[]\n"
            "%2 = maximum %0 %1 : f32[3]\n"
            "%3 = const 2 : f32[]\n"
            "%4 = minimum %2 %3 : f32[3]\n"
            "%5 = const 3 : f32[]\n"
            "%6 = minimum %0 %5 : f32[3]\n"
            "%7 = add %4 %6 : f32[3]\n"
            "return %7\n");
  EXPECT_EQ(fwd("        return ((x > 0) & ~(y <= 1)) | (x == y)\n", "torch.randn(3), torch.randn(3)"),
            "%0 = input #0 : f32[3]\n"
            "%1 = input #1 : f32[3]\n"
            "%2 = const 0 : f32[]\n"
            "%3 = gt %0 %2 : bool[3]\n"
            "%4 = const 1 : f32[]\n"
            "%5 = le %1 %4 : bool[3]\n"
            "%6 = logical_not %5 : bool[3]\n"
            "%7 = logical_and %3 %6 : bool[3]\n"
            "%8 = eq %0 %1 : bool[3]\n"
            "%9 = logical_or %7 %8 : bool[3]\n"
            "return %9\n");
}

TEST(TraceForward, UnaryAndActivations) {
  EXPECT_EQ(fwd("        return F.gelu(x, approximate='tanh') + F.silu(x) + torch.sigmoid(x).exp() + "
                "nn.functional.relu(-x)\n",
                "torch.randn(3)"),
            "%0 = input #0 : f32[3]\n"
            "%1 = gelu %0 tanh : f32[3]\n"
            "%2 = silu %0 : f32[3]\n"
            "%3 = add %1 %2 : f32[3]\n"
            "%4 = sigmoid %0 : f32[3]\n"
            "%5 = exp %4 : f32[3]\n"
            "%6 = add %3 %5 : f32[3]\n"
            "%7 = neg %0 : f32[3]\n"
            "%8 = relu %7 : f32[3]\n"
            "%9 = add %6 %8 : f32[3]\n"
            "return %9\n");
  // Float math on an integer tensor computes in float32.
  EXPECT_EQ(fwd("        return torch.sqrt(x)\n", "torch.randint(0, 5, (2,))"),
            "%0 = input #0 : i64[2]\n"
            "%1 = cast %0 : f32[2]\n"
            "%2 = sqrt %1 : f32[2]\n"
            "return %2\n");
}

TEST(TraceForward, Reductions) {
  EXPECT_EQ(fwd("        return x.sum(dim=1, keepdim=True) + torch.mean(x, -1, True)\n", "torch.randn(2, 3)"),
            "%0 = input #0 : f32[2, 3]\n"
            "%1 = sum %0 {1} keepdim : f32[2, 1]\n"
            "%2 = mean %0 {1} keepdim : f32[2, 1]\n"
            "%3 = add %1 %2 : f32[2, 1]\n"
            "return %3\n");
  EXPECT_EQ(fwd("        return x.amax(dim=(0, -1)), torch.prod(x), x.sum()\n", "torch.randn(2, 3, 4)"),
            "%0 = input #0 : f32[2, 3, 4]\n"
            "%1 = max %0 {0,2} : f32[3]\n"
            "%2 = prod %0 {0,1,2} : f32[]\n"
            "%3 = sum %0 {0,1,2} : f32[]\n"
            "return %1 %2 %3\n");
  EXPECT_EQ(fwd("        v, i = torch.max(x, 1)\n"
                "        m = x.min(dim=0, keepdim=True)\n"
                "        return v, i, m.values, m.indices, torch.max(x, 1)[0], torch.min(x)\n",
                "torch.randn(2, 3)"),
            "%0 = input #0 : f32[2, 3]\n"
            "%1 = max %0 {1} : f32[2]\n"
            "%2 = argmax %0 {1} : i64[2]\n"
            "%3 = min %0 {0} keepdim : f32[1, 3]\n"
            "%4 = argmin %0 {0} keepdim : i64[1, 3]\n"
            "%5 = min %0 {0,1} : f32[]\n"
            "return %1 %2 %3 %4 %1 %5\n");
  // argmax without dim runs over the flattened tensor.
  EXPECT_EQ(fwd("        return x.argmax(), torch.argmin(x, dim=-1)\n", "torch.randn(2, 3)"),
            "%0 = input #0 : f32[2, 3]\n"
            "%1 = reshape %0 : f32[6]\n"
            "%2 = argmax %1 {0} : i64[]\n"
            "%3 = argmin %0 {1} : i64[2]\n"
            "return %2 %3\n");
  // torch.max(a, b) is maximum.
  EXPECT_EQ(fwd("        return torch.max(x, y)\n", "torch.randn(2), torch.randn(2)"),
            "%0 = input #0 : f32[2]\n"
            "%1 = input #1 : f32[2]\n"
            "%2 = maximum %0 %1 : f32[2]\n"
            "return %2\n");
}

TEST(TraceForward, Softmax) {
  EXPECT_EQ(fwd("        return torch.softmax(x, dim=-1), F.log_softmax(x, 0), x.softmax(1, dtype=torch.float32)\n",
                "torch.randn(2, 3, dtype=torch.float16)"),
            "%0 = input #0 : f16[2, 3]\n"
            "%1 = softmax %0 {1} : f16[2, 3]\n"
            "%2 = log_softmax %0 {0} : f16[2, 3]\n"
            "%3 = cast %0 : f32[2, 3]\n"
            "%4 = softmax %3 {1} : f32[2, 3]\n"
            "return %1 %2 %4\n");
}

TEST(TraceForward, Views) {
  EXPECT_EQ(fwd("        b, c, h = x.shape\n"
                "        y = x.view(b, -1).reshape(b * c, h).t().contiguous()\n"
                "        return y, x.permute(2, 0, 1), x.transpose(0, -1), torch.flatten(x, 1), x.mT\n",
                "torch.randn(2, 3, 4)"),
            "%0 = input #0 : f32[2, 3, 4]\n"
            "%1 = reshape %0 : f32[2, 12]\n"
            "%2 = reshape %0 : f32[6, 4]\n"
            "%3 = permute %2 {1,0} : f32[4, 6]\n"
            "%4 = permute %0 {2,0,1} : f32[4, 2, 3]\n"
            "%5 = permute %0 {2,1,0} : f32[4, 3, 2]\n"
            "%6 = permute %0 {0,2,1} : f32[2, 4, 3]\n"
            "return %3 %4 %5 %1 %6\n");
  EXPECT_EQ(
      fwd("        return x.unsqueeze(0).expand(5, -1, 3), x[:, None], x[None, ..., 0].squeeze(), y.expand_as(x)\n",
          "torch.randn(2, 1), torch.randn(1)"),
      "%0 = input #0 : f32[2, 1]\n"
      "%1 = input #1 : f32[1]\n"
      "%2 = reshape %0 : f32[1, 2, 1]\n"
      "%3 = expand %2 : f32[5, 2, 3]\n"
      "%4 = reshape %0 : f32[2, 1, 1]\n"
      "%5 = reshape %0 : f32[2]\n"
      "%6 = reshape %1 : f32[1, 1]\n"
      "%7 = expand %6 : f32[2, 1]\n"
      "return %3 %4 %5 %7\n");
  // Shape queries are Python values.
  EXPECT_EQ(fwd("        n = x.size(0) * x.size()[1] + x.dim() + x.ndim + x.numel() + len(x)\n"
                "        return x * n\n",
                "torch.randn(2, 3)"),
            "%0 = input #0 : f32[2, 3]\n"
            "%1 = const 18 : f32[]\n"
            "%2 = mul %0 %1 : f32[2, 3]\n"
            "return %2\n");
}

TEST(TraceForward, Matmul) {
  // 1-D operands are reshaped to matrices and back, as in PyTorch.
  EXPECT_EQ(fwd("        return x @ y\n", "torch.randn(3), torch.randn(3)"),
            "%0 = input #0 : f32[3]\n"
            "%1 = input #1 : f32[3]\n"
            "%2 = reshape %0 : f32[1, 3]\n"
            "%3 = reshape %1 : f32[3, 1]\n"
            "%4 = matmul %2 %3 : f32[1, 1]\n"
            "%5 = reshape %4 : f32[]\n"
            "return %5\n");
  EXPECT_EQ(fwd("        return torch.matmul(x, y)\n", "torch.randn(2, 1, 4, 3), torch.randn(5, 3, 6)"),
            "%0 = input #0 : f32[2, 1, 4, 3]\n"
            "%1 = input #1 : f32[5, 3, 6]\n"
            "%2 = matmul %0 %1 : f32[2, 5, 4, 6]\n"
            "return %2\n");
  EXPECT_EQ(fwd("        return x.mm(y), torch.bmm(x[None], y[None])\n", "torch.randn(2, 3), torch.randn(3, 4)"),
            "%0 = input #0 : f32[2, 3]\n"
            "%1 = input #1 : f32[3, 4]\n"
            "%2 = matmul %0 %1 : f32[2, 4]\n"
            "%3 = reshape %0 : f32[1, 2, 3]\n"
            "%4 = reshape %1 : f32[1, 3, 4]\n"
            "%5 = matmul %3 %4 : f32[1, 2, 4]\n"
            "return %2 %5\n");
  EXPECT_EQ(fwd("        return F.linear(x, y)\n", "torch.randn(3), torch.randn(4, 3)"),
            "%0 = input #0 : f32[3]\n"
            "%1 = input #1 : f32[4, 3]\n"
            "%2 = permute %1 {1,0} : f32[3, 4]\n"
            "%3 = reshape %0 : f32[1, 3]\n"
            "%4 = matmul %3 %2 : f32[1, 4]\n"
            "%5 = reshape %4 : f32[4]\n"
            "return %5\n");
}

TEST(TraceForward, EinsumDiagAttention) {
  // einsum: B transposed by a permute, a batched contraction reshaped around one matmul.
  EXPECT_EQ(fwd("        return torch.einsum('ik,jk->ij', x, y), torch.einsum('ij,ij->i', x, x)\n",
                "torch.randn(2, 3), torch.randn(4, 3)"),
            "%0 = input #0 : f32[2, 3]\n"
            "%1 = input #1 : f32[4, 3]\n"
            "%2 = permute %1 {1,0} : f32[3, 4]\n"
            "%3 = matmul %0 %2 : f32[2, 4]\n"
            "%4 = reshape %0 : f32[2, 1, 3]\n"
            "%5 = reshape %0 : f32[2, 3, 1]\n"
            "%6 = matmul %4 %5 : f32[2, 1, 1]\n"
            "%7 = reshape %6 : f32[2]\n"
            "return %3 %7\n");
  // diag(d) @ m is a row scale; the diagonal matrix is not in the graph.
  EXPECT_EQ(fwd("        return torch.diag(y) @ x\n", "torch.randn(3, 5), torch.randn(3)"),
            "%0 = input #0 : f32[3, 5]\n"
            "%1 = input #1 : f32[3]\n"
            "%2 = reshape %1 : f32[3, 1]\n"
            "%3 = mul %2 %0 : f32[3, 5]\n"
            "return %3\n");
  EXPECT_EQ(fwd("        return F.scaled_dot_product_attention(x, x, y, is_causal=True, scale=0.5)\n",
                "torch.randn(2, 7, 4), torch.randn(2, 7, 6)"),
            "%0 = input #0 : f32[2, 7, 4]\n"
            "%1 = input #1 : f32[2, 7, 6]\n"
            "%2 = permute %0 {0,2,1} : f32[2, 4, 7]\n"
            "%3 = attention %0 %2 %1 {1,0,1} [0.5, -inf] : f32[2, 7, 6]\n"
            "return %3\n");
}

TEST(TraceForward, ControlFlowOverPythonValues) {
  std::string src = std::string(kHeader) +
                    "def act(t, kind):\n"
                    "    return {'relu': torch.relu, 'tanh': torch.tanh}[kind](t)\n"
                    "class Model(nn.Module):\n"
                    "    def __init__(self, depth, kinds=('relu', 'tanh')):\n"
                    "        super(Model, self).__init__()\n"
                    "        self.depth = depth\n"
                    "        self.kinds = list(kinds)\n"
                    "    def forward(self, x, scale):\n"
                    "        for i in range(self.depth):\n"
                    "            if i % 2 == 0 and i not in (4,):\n"
                    "                x = act(x, self.kinds[i // 2 % len(self.kinds)])\n"
                    "            else:\n"
                    "                x = x * scale\n"
                    "        ys = [x * k for k in range(1, 3) if k != 0]\n"
                    "        total = sum(ys[1:], ys[0])\n"
                    "        return total if self.depth > 2 else x\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(4), 0.5]\n"
                    "def get_init_inputs():\n"
                    "    return [3]\n";
  Traced t = trace_text(src);
  EXPECT_EQ(body(t.graph),
            "%0 = input #0 : f32[4]\n"
            "%1 = relu %0 : f32[4]\n"
            "%2 = const 0.5 : f32[]\n"
            "%3 = mul %1 %2 : f32[4]\n"
            "%4 = tanh %3 : f32[4]\n"
            "%5 = const 1 : f32[]\n"
            "%6 = mul %4 %5 : f32[4]\n"
            "%7 = const 2 : f32[]\n"
            "%8 = mul %4 %7 : f32[4]\n"
            "%9 = add %6 %8 : f32[4]\n"
            "return %9\n");
  EXPECT_EQ(t.result.graph->inputs.size(), 1u);  // the float input is baked
  EXPECT_EQ(t.result.forward_params, (std::vector<std::string>{"x", "scale"}));
  EXPECT_EQ(t.result.init.signature, "depth, kinds=('relu', 'tanh')");
  EXPECT_EQ(t.result.init.arg_values, (std::vector<std::string>{"3", "('relu', 'tanh')"}));
}

TEST(TraceForward, Modules) {
  std::string src = std::string(kHeader) +
                    "class Block(nn.Module):\n"
                    "    def __init__(self, d):\n"
                    "        super().__init__()\n"
                    "        self.net = nn.Sequential(nn.Linear(d, d), nn.GELU(approximate='tanh'), nn.Dropout(0.0))\n"
                    "        self.norm = nn.Softmax(dim=-1)\n"
                    "    def forward(self, x):\n"
                    "        return self.norm(self.net(x)) + x\n"
                    "class Model(nn.Module):\n"
                    "    def __init__(self, d, n):\n"
                    "        super().__init__()\n"
                    "        self.blocks = nn.ModuleList([Block(d) for _ in range(n)])\n"
                    "        self.out = nn.Linear(d, 2, bias=False)\n"
                    "        self.flat = nn.Flatten()\n"
                    "    def forward(self, x):\n"
                    "        for b in self.blocks:\n"
                    "            x = b(x)\n"
                    "        return nn.functional.log_softmax(self.out(self.flat(x[:, None])), dim=1)\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(5, 4)]\n"
                    "def get_init_inputs():\n"
                    "    return [4, 2]\n";
  Traced t = trace_text(src);
  std::string params;
  for (const auto& p : t.result.graph->params) params += p.path + " ";
  EXPECT_EQ(params, "blocks.0.net.0.weight blocks.0.net.0.bias blocks.1.net.0.weight blocks.1.net.0.bias out.weight ");
  EXPECT_EQ(body(t.graph),
            "%0 = input #0 : f32[5, 4]\n"
            "%1 = param blocks.0.net.0.weight : f32[4, 4]\n"
            "%2 = param blocks.0.net.0.bias : f32[4]\n"
            "%3 = permute %1 {1,0} : f32[4, 4]\n"
            "%4 = matmul %0 %3 : f32[5, 4]\n"
            "%5 = add %4 %2 : f32[5, 4]\n"
            "%6 = gelu %5 tanh : f32[5, 4]\n"
            "%7 = softmax %6 {1} : f32[5, 4]\n"
            "%8 = add %7 %0 : f32[5, 4]\n"
            "%9 = param blocks.1.net.0.weight : f32[4, 4]\n"
            "%10 = param blocks.1.net.0.bias : f32[4]\n"
            "%11 = permute %9 {1,0} : f32[4, 4]\n"
            "%12 = matmul %8 %11 : f32[5, 4]\n"
            "%13 = add %12 %10 : f32[5, 4]\n"
            "%14 = gelu %13 tanh : f32[5, 4]\n"
            "%15 = softmax %14 {1} : f32[5, 4]\n"
            "%16 = add %15 %8 : f32[5, 4]\n"
            "%17 = param out.weight : f32[2, 4]\n"
            "%18 = permute %17 {1,0} : f32[4, 2]\n"
            "%19 = matmul %16 %18 : f32[5, 2]\n"
            "%20 = log_softmax %19 {1} : f32[5, 2]\n"
            "return %20\n");
  // The blocks are built before the list that holds them: temporaries keep the draws in order, and the
  // parameterless modules are not replayed (a placeholder keeps nn.Sequential's indices).
  EXPECT_EQ(t.init,
            "# self.blocks = nn.ModuleList([Block(d) for _ in range(n)])\n"
            "_m0 = nn.Module()\n"
            "# self.net = nn.Sequential(nn.Linear(d, d), nn.GELU(approximate='tanh'), nn.Dropout(0.0))\n"
            "_m1 = nn.Module()\n"
            "_m1.weight = nn.Parameter(torch.empty(4, 4))\n"
            "_m1.bias = nn.Parameter(torch.empty(4))\n"
            "nn.init.kaiming_uniform_(_m1.weight, a=math.sqrt(5))\n"
            "bound = 1 / math.sqrt(4)\n"
            "nn.init.uniform_(_m1.bias, -bound, bound)\n"
            "_m0.net = nn.ModuleList([_m1, nn.Module(), nn.Module()])\n"
            "_m2 = nn.Module()\n"
            "# self.net = nn.Sequential(nn.Linear(d, d), nn.GELU(approximate='tanh'), nn.Dropout(0.0))\n"
            "_m3 = nn.Module()\n"
            "_m3.weight = nn.Parameter(torch.empty(4, 4))\n"
            "_m3.bias = nn.Parameter(torch.empty(4))\n"
            "nn.init.kaiming_uniform_(_m3.weight, a=math.sqrt(5))\n"
            "bound = 1 / math.sqrt(4)\n"
            "nn.init.uniform_(_m3.bias, -bound, bound)\n"
            "_m2.net = nn.ModuleList([_m3, nn.Module(), nn.Module()])\n"
            "self.blocks = nn.ModuleList([_m0, _m2])\n"
            "# self.out = nn.Linear(d, 2, bias=False)\n"
            "self.out = nn.Module()\n"
            "self.out.weight = nn.Parameter(torch.empty(2, 4))\n"
            "nn.init.kaiming_uniform_(self.out.weight, a=math.sqrt(5))\n");
}

TEST(TraceInit, NestedModulesAndInitCalls) {
  std::string src =
      std::string(kHeader) +
      "import math\n"
      "class Inner(nn.Module):\n"
      "    def __init__(self, n):\n"
      "        super().__init__()\n"
      "        self.w = nn.Parameter(torch.empty(n, n))\n"
      "        nn.init.xavier_uniform_(self.w)\n"
      "        self.register_buffer('mask', torch.tril(torch.ones(n, n)).view(1, n, n))\n"
      "class Model(nn.Module):\n"
      "    def __init__(self, n, *, eps=1e-05):\n"
      "        super().__init__()\n"
      "        self.inner = Inner(n)\n"
      "        self.fc = nn.Linear(n, n)\n"
      "        for layer in [self.fc]:\n"
      "            nn.init.normal_(layer.weight, mean=0.0, std=0.02)\n"
      "            layer.bias.data.zero_()\n"
      "        w = torch.empty(3)\n"
      "        nn.init.uniform_(w, -math.pi, math.pi)\n"
      "        self.theta = nn.Parameter(w)\n"
      "        self.scale = torch.ones(n) / n\n"
      "        self.register_buffer('stats', torch.zeros(2, dtype=torch.float16), persistent=False)\n"
      "        self.eps = eps\n"
      "    def forward(self, x):\n"
      "        return (x @ self.inner.w) * self.inner.mask[0] + self.fc(x) * self.scale + self.theta.sum()\n"
      "def get_inputs():\n"
      "    return [torch.randn(3, 3)]\n"
      "def get_init_inputs():\n"
      "    return [3]\n";
  Traced t = trace_text(src);
  EXPECT_EQ(t.result.init.signature, "n, *, eps=1e-05");
  EXPECT_EQ(t.result.init.arg_names, (std::vector<std::string>{"n", "eps"}));
  EXPECT_EQ(t.result.init.arg_values, (std::vector<std::string>{"3", "1e-05"}));
  EXPECT_EQ(t.init,
            "# self.inner = Inner(n)\n"
            "self.inner = nn.Module()\n"
            "# self.w = nn.Parameter(torch.empty(n, n))\n"
            "self.inner.w = nn.Parameter(torch.empty(3, 3))\n"
            "# nn.init.xavier_uniform_(self.w)\n"
            "nn.init.xavier_uniform_(self.inner.w)\n"
            "# self.register_buffer('mask', torch.tril(torch.ones(n, n)).view(1, n, n))\n"
            "self.inner.register_buffer('mask', torch.tril(torch.ones(3, 3)).view(1, 3, 3))\n"
            "# self.fc = nn.Linear(n, n)\n"
            "self.fc = nn.Module()\n"
            "self.fc.weight = nn.Parameter(torch.empty(3, 3))\n"
            "self.fc.bias = nn.Parameter(torch.empty(3))\n"
            "nn.init.kaiming_uniform_(self.fc.weight, a=math.sqrt(5))\n"
            "bound = 1 / math.sqrt(3)\n"
            "nn.init.uniform_(self.fc.bias, -bound, bound)\n"
            "# for layer in [self.fc]:\n"
            "# nn.init.normal_(layer.weight, mean=0.0, std=0.02)\n"
            "nn.init.normal_(self.fc.weight, mean=0.0, std=0.02)\n"
            "# layer.bias.data.zero_()\n"
            "self.fc.bias.data.zero_()\n"
            "# nn.init.uniform_(w, -math.pi, math.pi)\n"
            "_t0 = torch.empty(3)\n"
            "nn.init.uniform_(_t0, -3.141592653589793, 3.141592653589793)\n"
            "# self.theta = nn.Parameter(w)\n"
            "self.theta = nn.Parameter(_t0)\n"
            "# self.scale = torch.ones(n) / n\n"
            "self.register_buffer('scale', torch.ones(3) / 3, persistent=False)\n"
            "# self.register_buffer('stats', torch.zeros(2, dtype=torch.float16), persistent=False)\n"
            "self.register_buffer('stats', torch.zeros(2, dtype=torch.float16), persistent=False)\n");
  std::string params;
  for (const auto& p : t.result.graph->params) params += p.path + ":" + dtype_name(p.dtype) + shape_str(p.shape) + " ";
  EXPECT_EQ(params,
            "inner.w:f32[3, 3] inner.mask:f32[1, 3, 3] fc.weight:f32[3, 3] fc.bias:f32[3] theta:f32[3] "
            "scale:f32[3] stats:f16[2] ");
}

TEST(TraceInit, RandomDrawsInOrder) {
  // Every draw is its own line at the moment it runs, even when the module that holds its result is
  // attached later than a sibling's draw.
  std::string src = std::string(kHeader) +
                    "class Model(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        a = torch.randn(2, 2)\n"
                    "        b = torch.rand(2) * 2 - 1\n"
                    "        self.b = nn.Parameter(b, requires_grad=False)\n"
                    "        self.a = nn.Parameter(a.t().contiguous())\n"
                    "        self.tied = self.a\n"
                    "        self.idx = torch.randint(0, 4, (3,))\n"
                    "    def forward(self, x):\n"
                    "        return x @ self.tied + self.b\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(2, 2)]\n"
                    "def get_init_inputs():\n"
                    "    return []\n";
  Traced t = trace_text(src);
  EXPECT_EQ(t.init,
            "# a = torch.randn(2, 2)\n"
            "_t0 = torch.randn(2, 2)\n"
            "# b = torch.rand(2) * 2 - 1\n"
            "_t1 = torch.rand(2)\n"
            "# self.b = nn.Parameter(b, requires_grad=False)\n"
            "self.b = nn.Parameter(_t1 * 2 - 1, requires_grad=False)\n"
            "# self.a = nn.Parameter(a.t().contiguous())\n"
            "self.a = nn.Parameter(_t0.t().contiguous())\n"
            "# self.tied = self.a\n"
            "self.tied = self.a\n"
            "# self.idx = torch.randint(0, 4, (3,))\n"
            "_t2 = torch.randint(0, 4, (3,))\n"
            "self.register_buffer('idx', _t2, persistent=False)\n");
  std::string params;
  for (const auto& p : t.result.graph->params) params += p.path + " ";
  EXPECT_EQ(params, "b a idx ");
  EXPECT_EQ(body(t.graph),
            "%0 = input #0 : f32[2, 2]\n"
            "%1 = param a : f32[2, 2]\n"
            "%2 = matmul %0 %1 : f32[2, 2]\n"
            "%3 = param b : f32[2]\n"
            "%4 = add %2 %3 : f32[2, 2]\n"
            "return %4\n");
}

TEST(TraceInit, InPlaceChangesKeepAliasing) {
  // Checked against PyTorch (same state_dict and RNG state after both constructors under one seed): an
  // in-place change reaches every view of the changed storage, and the values computed from it before
  // the change keep their old value.
  std::string src = std::string(kHeader) +
                    "class Model(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        w = torch.empty(3, 4)\n"
                    "        self.w = nn.Parameter(w)\n"
                    "        nn.init.xavier_uniform_(w)\n"
                    "        a = torch.randn(4)\n"
                    "        b = a * 2\n"
                    "        a.mul_(10)\n"
                    "        self.a = nn.Parameter(a)\n"
                    "        self.b = nn.Parameter(b)\n"
                    "        c = torch.zeros(2, 3)\n"
                    "        self.c = nn.Parameter(c)\n"
                    "        c.view(6).add_(1.5)\n"
                    "        d = torch.ones(3)\n"
                    "        e = d + 1\n"
                    "        d.fill_(7.0)\n"
                    "        self.register_buffer('d', d)\n"
                    "        self.register_buffer('e', e)\n"
                    "        h = nn.Parameter(torch.zeros(3))\n"
                    "        h.data.uniform_(-1, 1)\n"
                    "        self.h = h\n"
                    "    def forward(self, x):\n"
                    "        return x\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(2)]\n"
                    "def get_init_inputs():\n"
                    "    return []\n";
  EXPECT_EQ(trace_text(src).init,
            "# self.w = nn.Parameter(w)\n"
            "self.w = nn.Parameter(torch.empty(3, 4))\n"
            "# nn.init.xavier_uniform_(w)\n"
            "nn.init.xavier_uniform_(self.w.data)\n"
            "# a = torch.randn(4)\n"
            "_t0 = torch.randn(4)\n"
            "# a.mul_(10)\n"
            "_t1 = _t0 * 2\n"
            "_t0.mul_(10)\n"
            "# self.a = nn.Parameter(a)\n"
            "self.a = nn.Parameter(_t0)\n"
            "# self.b = nn.Parameter(b)\n"
            "self.b = nn.Parameter(_t1)\n"
            "# self.c = nn.Parameter(c)\n"
            "self.c = nn.Parameter(torch.zeros(2, 3))\n"
            "# c.view(6).add_(1.5)\n"
            "self.c.data.view(6).add_(1.5)\n"
            "# d.fill_(7.0)\n"
            "_t2 = torch.ones(3)\n"
            "_t2.fill_(7.0)\n"
            "# self.register_buffer('d', d)\n"
            "self.register_buffer('d', _t2)\n"
            "# self.register_buffer('e', e)\n"
            "self.register_buffer('e', torch.ones(3) + 1)\n"
            "# h.data.uniform_(-1, 1)\n"
            "_t3 = nn.Parameter(torch.zeros(3))\n"
            "_t3.data.uniform_(-1, 1)\n"
            "# self.h = h\n"
            "self.h = _t3\n");
}

TEST(TraceInit, ModuleListAppendedInALoop) {
  std::string src = std::string(kHeader) +
                    "class Model(nn.Module):\n"
                    "    def __init__(self, sizes):\n"
                    "        super().__init__()\n"
                    "        self.layers = nn.ModuleList()\n"
                    "        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):\n"
                    "            self.layers.append(nn.Linear(a, b, bias=i > 0))\n"
                    "            self.layers.append(nn.ReLU())\n"
                    "    def forward(self, x):\n"
                    "        for layer in self.layers:\n"
                    "            x = layer(x)\n"
                    "        return x\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(2, 3)]\n"
                    "def get_init_inputs():\n"
                    "    return [[3, 4, 5]]\n";
  Traced t = trace_text(src);
  EXPECT_EQ(t.init,
            "# self.layers = nn.ModuleList()\n"
            "self.layers = nn.ModuleList()\n"
            "# for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):\n"
            "# self.layers.append(nn.Linear(a, b, bias=i > 0))\n"
            "self.layers.append(nn.Module())\n"
            "self.layers[0].weight = nn.Parameter(torch.empty(4, 3))\n"
            "nn.init.kaiming_uniform_(self.layers[0].weight, a=math.sqrt(5))\n"
            "# self.layers.append(nn.ReLU())\n"
            "self.layers.append(nn.Module())\n"
            "# self.layers.append(nn.Linear(a, b, bias=i > 0))\n"
            "self.layers.append(nn.Module())\n"
            "self.layers[2].weight = nn.Parameter(torch.empty(5, 4))\n"
            "self.layers[2].bias = nn.Parameter(torch.empty(5))\n"
            "nn.init.kaiming_uniform_(self.layers[2].weight, a=math.sqrt(5))\n"
            "bound = 1 / math.sqrt(4)\n"
            "nn.init.uniform_(self.layers[2].bias, -bound, bound)\n"
            "# self.layers.append(nn.ReLU())\n"
            "self.layers.append(nn.Module())\n");
  EXPECT_EQ(t.result.init.arg_values, (std::vector<std::string>{"[3, 4, 5]"}));
}

TEST(TraceInit, OverridesReachDerivedConstants) {
  std::string src = std::string(kHeader) +
                    "N = 1024\n"
                    "M = N * 2\n"
                    "class Model(nn.Module):\n"
                    "    def forward(self, x):\n"
                    "        return x * 2\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(M, N, dtype=DT)]\n"
                    "DT = torch.float32\n"
                    "def get_init_inputs():\n"
                    "    return []\n";
  TraceOptions o;
  o.overrides["N"] = "7";
  Traced t = trace_text(src, o);
  EXPECT_EQ(t.result.graph->inputs[0].shape, (Shape{14, 7}));
  o.overrides["DT"] = "'x'";
  o.overrides.erase("N");
  EXPECT_EQ(trace_error(src, o), "10:13: torch.randn: expected a torch dtype, got str");
}

// ---- errors: message and location ----

TEST(TraceErrors, UnknownTorchFunction) {
  EXPECT_EQ(trace_error(forward_module("        return torch.fft.fft(x)\n", "torch.randn(4)")),
            "8:16: torch.fft.fft is not supported");
  EXPECT_EQ(trace_error(forward_module("        return x.cummax(0)\n", "torch.randn(4)")),
            "8:16: Tensor.cummax is not supported");
  EXPECT_EQ(trace_error(forward_module("        return F.grid_sample(x, x)\n", "torch.randn(4)")),
            "8:16: F.grid_sample is not supported");
}

TEST(TraceErrors, ShapeMismatch) {
  EXPECT_EQ(trace_error(forward_module("        return x + y\n", "torch.randn(2, 3), torch.randn(4)")),
            "8:16: shapes [2, 3] and [4] do not broadcast");
  EXPECT_EQ(trace_error(forward_module("        return x @ y\n", "torch.randn(2, 3), torch.randn(4, 5)")),
            "8:16: matmul: shapes [2, 3] and [4, 5] cannot be multiplied (3 != 4)");
  EXPECT_EQ(trace_error(forward_module("        return x.view(5, -1)\n", "torch.randn(2, 3)")),
            "8:16: shape [5, -1] is invalid for input of size 6 (shape [2, 3])");
  EXPECT_EQ(trace_error(forward_module("        return x.sum(dim=2)\n", "torch.randn(2, 3)")),
            "8:16: dim 2 is out of range for a tensor of rank 2 (expected in [-2, 1])");
  EXPECT_EQ(trace_error(forward_module("        return torch.mm(x, y)\n", "torch.randn(2, 3), torch.randn(3)")),
            "8:16: torch.mm expects 2-D tensors, got [2, 3] and [3]");
}

TEST(TraceErrors, MissingModelAndFunctions) {
  EXPECT_EQ(
      trace_error(std::string(kHeader) + "class Net(nn.Module):\n    pass\n"
                                         "def get_inputs():\n    return []\ndef get_init_inputs():\n    return []\n"),
      "1:1: no class named 'Model' in the file");
  TraceOptions o;
  o.class_name = "Net";
  EXPECT_EQ(
      trace_error(std::string(kHeader) + "class Net(nn.Module):\n    pass\ndef get_inputs():\n    return []\n", o),
      "1:1: the file defines no get_init_inputs() function");
}

TEST(TraceErrors, InitArity) {
  std::string src = std::string(kHeader) +
                    "class Model(nn.Module):\n"
                    "    def __init__(self, a, b=2):\n"
                    "        super().__init__()\n"
                    "    def forward(self, x):\n"
                    "        return x\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(2)]\n"
                    "def get_init_inputs():\n"
                    "    return [1, 2, 3]\n";
  EXPECT_EQ(trace_error(src), "5:5: Model.__init__ takes 1 to 2 arguments but get_init_inputs() returns 3");
  std::string src2 = std::string(kHeader) +
                     "class Model(nn.Module):\n"
                     "    def __init__(self, a, b):\n"
                     "        super().__init__()\n"
                     "    def forward(self, x):\n"
                     "        return x\n"
                     "def get_inputs():\n"
                     "    return [torch.randn(2)]\n"
                     "def get_init_inputs():\n"
                     "    return [1, 2, 3]\n";
  EXPECT_EQ(trace_error(src2), "5:5: Model.__init__ takes 2 arguments but get_init_inputs() returns 3");
  EXPECT_EQ(trace_error(forward_module("        return x\n", "torch.randn(2), torch.randn(2), torch.randn(2)")),
            "7:5: Model.forward takes 1 to 2 arguments but get_inputs() returns 3");
}

TEST(TraceErrors, DataDependentControlFlow) {
  EXPECT_EQ(trace_error(
                forward_module("        if x.sum() > 0:\n            return x\n        return -x\n", "torch.randn(4)")),
            "8:12: the truth value of a tensor depends on its data: data-dependent control flow is not supported");
  EXPECT_EQ(trace_error(forward_module("        return x * x.max().item()\n", "torch.randn(4)")),
            "8:20: Tensor.item() is not supported: it depends on the tensor's data");
}

TEST(TraceErrors, SetOfUnknownName) {
  TraceOptions o;
  o.overrides["BATCH"] = "4";
  EXPECT_EQ(trace_error(forward_module("        return x\n", "torch.randn(4)"), o),
            "1:1: --set: no module-level constant named 'BATCH'");
  o.overrides.clear();
  o.overrides["x"] = "4 5";
  EXPECT_EQ(trace_error(forward_module("        return x\n", "torch.randn(4)"), o),
            "1:1: --set x=4 5: the value is not a Python literal");
}

TEST(TraceErrors, OpaqueImport) {
  std::string src = "import numpy as np\nfrom typing import List, Optional\n" +
                    forward_module("        return x * np.sqrt(2)\n", "torch.randn(4)");
  EXPECT_EQ(trace_error(src),
            "10:20: np.sqrt is not supported: 'numpy' is imported but not traced (only torch, "
            "torch.nn, torch.nn.functional and math are)");
}

TEST(TraceErrors, UnsupportedModule) {
  EXPECT_EQ(trace_error(forward_module("        return self.rnn(x)\n", "torch.randn(1, 3, 8)",
                                       "        self.rnn = nn.LSTM(8, 16)\n")),
            "7:20: nn.LSTM is not supported yet");
  EXPECT_EQ(trace_error(forward_module("        return self.drop(x)\n", "torch.randn(4)",
                                       "        self.drop = nn.Dropout(0.1)\n")),
            "9:16: nn.Dropout with p > 0 in training mode is random: not supported");
}

TEST(TraceErrors, FStringsAndMisc) {
  // f-strings work (e.g. in buffer names).
  Traced t = trace_text(forward_module("        return x + self.b0\n", "torch.randn(2)",
                                       "        for i in range(1):\n"
                                       "            self.register_buffer(f'b{i}', torch.zeros(2))\n"));
  EXPECT_NE(t.init.find("self.register_buffer('b0', torch.zeros(2))"), std::string::npos) << t.init;
  EXPECT_EQ(trace_error(forward_module("        return x.double()\n", "torch.randn(2)")),
            "8:16: float64 tensors are not supported");
  EXPECT_EQ(trace_error(forward_module("        x.add_(1)\n        return x\n", "torch.randn(2)")),
            "8:9: Tensor.add_ is an in-place operation: not supported in forward() (write x = x.add(...))");
  EXPECT_EQ(trace_error(forward_module("        while True:\n            pass\n        return x\n", "torch.randn(2)")),
            "8:9: execution exceeded 1000000 steps: an endless loop?");
  EXPECT_EQ(trace_error("import torch\ndef f(n):\n    return f(n + 1)\nf(0)\n"),
            "3:12: calls nested deeper than 200: endless recursion?");
  EXPECT_EQ(trace_error(forward_module("        return torch.randn(2) + x\n", "torch.randn(2)")),
            "8:16: torch.randn in forward() draws random numbers: not supported");
  EXPECT_EQ(trace_error(forward_module("        return x + undefined_name\n", "torch.randn(2)")),
            "8:20: name 'undefined_name' is not defined");
}

TEST(TraceInterp, PythonSubset) {
  // Classes with inheritance and super() in both spellings, properties, static and class methods, *args,
  // **kwargs, keyword-only parameters, closures, comprehensions, unpacking, string formatting.
  std::string src = std::string(kHeader) +
                    "import math, numpy as np\n"
                    "from typing import Optional\n"
                    "CFG = dict(scale=2, names=['a', 'b'])\n"
                    "def compose(*fs):\n"
                    "    def run(v):\n"
                    "        for f in reversed(fs):\n"
                    "            v = f(v)\n"
                    "        return v\n"
                    "    return run\n"
                    "class Base(nn.Module):\n"
                    "    factor = 3\n"
                    "    def __init__(self, *, k: int = 1, **extra):\n"
                    "        nn.Module.__init__(self)\n"
                    "        self.k = k + len(extra)\n"
                    "    @property\n"
                    "    def double(self):\n"
                    "        return 2 * self.k\n"
                    "    @staticmethod\n"
                    "    def sq(v):\n"
                    "        return v * v\n"
                    "    @classmethod\n"
                    "    def make(cls, **kw):\n"
                    "        return cls(**kw)\n"
                    "class Model(Base):\n"
                    "    \"\"\"docstring\"\"\"\n"
                    "    def __init__(self, a, b=4, *rest):\n"
                    "        super(Model, self).__init__(k=a, unused=None)\n"
                    "        first, *middle, last = [a, b, *rest, 9]\n"
                    "        self.n = sum(x for x in middle) + last\n"
                    "        self.table = {n: i for i, n in enumerate(CFG['names'])}\n"
                    "        self.label = '{}-{:.2f}-{k}'.format(a, 0.5, k=self.double) + f'|{b:>3}|{b!r}'\n"
                    "        assert self.label == '1-0.50-4|  4|4', self.label\n"
                    "        assert 'x' not in self.table and self.table.get('b') == 1\n"
                    "        self.f = compose(lambda t: t + self.factor, self.sq)\n"
                    "    def forward(self, x: torch.Tensor) -> torch.Tensor:\n"
                    "        s = self.n if self.n > 100 else -self.n\n"
                    "        return self.f(x) * s * CFG['scale'] * math.floor(2.5) * int(-7 // 2) << 1\n"
                    "if __name__ == '__main__':\n"
                    "    np.random.seed(0)\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(2)]\n"
                    "def get_init_inputs():\n"
                    "    return [1, 4, 5]\n";
  EXPECT_EQ(trace_error(src), "40:16: the tensor operator << is not supported");
  std::string ok = src;
  ok.replace(ok.find(" << 1"), 5, "");
  // n = sum([4, 5]) + 9 = 18; f(x) = x * x + 3; then * -18 * 2 * 2 * -4.
  EXPECT_EQ(body(trace_text(ok).graph),
            "%0 = input #0 : f32[2]\n"
            "%1 = mul %0 %0 : f32[2]\n"
            "%2 = const 3 : f32[]\n"
            "%3 = add %1 %2 : f32[2]\n"
            "%4 = const -18 : f32[]\n"
            "%5 = mul %3 %4 : f32[2]\n"
            "%6 = const 2 : f32[]\n"
            "%7 = mul %5 %6 : f32[2]\n"
            "%8 = mul %7 %6 : f32[2]\n"
            "%9 = const -4 : f32[]\n"
            "%10 = mul %8 %9 : f32[2]\n"
            "return %10\n");
  EXPECT_EQ(trace_text(ok).result.init.signature, "a, b=4, *rest");
}

TEST(TraceErrors, ModulesOutsideInit) {
  std::string src = std::string(kHeader) +
                    "SHARED = nn.Module()\n"
                    "class Model(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        SHARED.w = nn.Parameter(torch.zeros(2))\n"
                    "    def forward(self, x):\n"
                    "        return x\n"
                    "def get_inputs():\n"
                    "    return [torch.randn(2)]\n"
                    "def get_init_inputs():\n"
                    "    return []\n";
  EXPECT_EQ(trace_error(src), "8:9: a parameter of a module created outside __init__ cannot be replayed in ModelNew");
  std::string src2 = std::string(kHeader) +
                     "W = torch.randn(2)\n"
                     "class Model(nn.Module):\n"
                     "    def __init__(self):\n"
                     "        super().__init__()\n"
                     "        self.w = nn.Parameter(W * 2)\n"
                     "    def forward(self, x):\n"
                     "        return x * self.w\n"
                     "def get_inputs():\n"
                     "    return [torch.randn(2)]\n"
                     "def get_init_inputs():\n"
                     "    return []\n";
  EXPECT_EQ(trace_error(src2),
            "8:18: this tensor was created outside __init__ (at module level?) and cannot be replayed in ModelNew");
  EXPECT_EQ(trace_error(forward_module("        return x.scatter_(0, x, x)\n", "torch.randn(2)")),
            "8:16: Tensor.scatter_ is an in-place operation: not supported in forward() (write x = x.scatter(...))");
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

namespace tz {
namespace {

TEST(TraceConv, OutputSizesAndAttributes) {
  // padding='same' with an even kernel: 1 before, 2 after (PyTorch's split); the conv keeps the leading side.
  EXPECT_EQ(fwd("        return F.conv2d(x, y, padding='same')\n", "torch.randn(2, 3, 9, 8), torch.randn(5, 3, 4, 1)"),
            "%0 = input #0 : f32[2, 3, 9, 8]\n"
            "%1 = input #1 : f32[5, 3, 4, 1]\n"
            "%2 = conv %0 %1 {1,1,1,0,1,1} groups=1 : f32[2, 5, 9, 8]\n"
            "return %2\n");
  // Transposed: (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1.
  EXPECT_EQ(fwd("        return F.conv_transpose1d(x, y, stride=3, padding=2, output_padding=1, groups=2)\n",
                "torch.randn(4, 6, 10), torch.randn(6, 5, 5)"),
            "%0 = input #0 : f32[4, 6, 10]\n"
            "%1 = input #1 : f32[6, 5, 5]\n"
            "%2 = conv %0 %1 {3,2,1} groups=2 transposed : f32[4, 10, 29]\n"
            "return %2\n");
  // An unbatched input gains a batch dim of 1 around the conv.
  EXPECT_EQ(fwd("        return F.conv1d(x, y, stride=2, dilation=2)\n", "torch.randn(3, 11), torch.randn(4, 3, 3)"),
            "%0 = input #0 : f32[3, 11]\n"
            "%1 = input #1 : f32[4, 3, 3]\n"
            "%2 = reshape %0 : f32[1, 3, 11]\n"
            "%3 = conv %2 %1 {2,0,2} groups=1 : f32[1, 4, 4]\n"
            "%4 = reshape %3 : f32[4, 4]\n"
            "return %4\n");
}

TEST(TraceConv, ConvTransposeInitReplayUsesWeightDimOne) {
  Traced t = trace_text(forward_module("        return self.up(x)\n", "torch.randn(2, 8, 5, 5)",
                                       "        self.up = nn.ConvTranspose2d(8, 6, 3, stride=2, groups=2)\n"));
  EXPECT_EQ(t.init,
            "# self.up = nn.ConvTranspose2d(8, 6, 3, stride=2, groups=2)\n"
            "self.up = nn.Module()\n"
            "self.up.weight = nn.Parameter(torch.empty(8, 3, 3, 3))\n"
            "self.up.bias = nn.Parameter(torch.empty(6))\n"
            "nn.init.kaiming_uniform_(self.up.weight, a=math.sqrt(5))\n"
            "bound = 1 / math.sqrt(27)\n"
            "nn.init.uniform_(self.up.bias, -bound, bound)\n");
}

TEST(TraceConv, ConvTransposeOutputSizeSetsOutputPadding) {
  Traced t = trace_text(forward_module("        return self.up(x, output_size=[2, 8, 11, 12])\n", "torch.randn(2, 4, 5, 5)",
                                       "        self.up = nn.ConvTranspose2d(4, 8, 3, stride=2)\n"));
  EXPECT_NE(t.graph.find("conv %0 %2 {2,2,0,0,1,1} groups=1 transposed : f32[2, 8, 11, 12]"), std::string::npos)
      << t.graph;
  EXPECT_EQ(trace_error(forward_module("        return self.up(x, output_size=(13, 11))\n", "torch.randn(2, 4, 5, 5)",
                                       "        self.up = nn.ConvTranspose2d(4, 8, 3, stride=2)\n")),
            "9:16: nn.ConvTranspose2d: requested output size 13 is not between 11 and 12");
}

TEST(TraceConv, LocatedErrors) {
  EXPECT_EQ(trace_error(forward_module("        return F.conv2d(x, y, groups=2)\n",
                                       "torch.randn(2, 3, 9, 8), torch.randn(4, 3, 3, 3)")),
            "8:16: F.conv2d: the input has 3 channels, but the weight [4, 3, 3, 3] with groups=2 expects 6");
  EXPECT_EQ(trace_error(forward_module("        return F.conv2d(x, y, padding='full')\n",
                                       "torch.randn(2, 3, 9, 8), torch.randn(4, 3, 3, 3)")),
            "8:16: F.conv2d: padding must be 'same', 'valid', an int or a tuple of ints, got 'full'");
  EXPECT_EQ(trace_error(forward_module("        return F.conv2d(x, y, stride=(1, 2, 1))\n",
                                       "torch.randn(2, 3, 9, 8), torch.randn(4, 3, 3, 3)")),
            "8:16: F.conv2d stride: expected an int or 2 ints, got 3");
}

}  // namespace
}  // namespace tz
