// Pooling through the whole front half of the pipeline: PyTorch's output sizes (ceil_mode, dilation, adaptive
// None entries), the decompositions (global pool => reduction, even adaptive => plain pool) and the window kernel.
#include <gtest/gtest.h>

#include "driver/pipeline.h"

namespace tz {
namespace {

std::string convert_to(const std::string& forward, const std::string& input_shape, EmitStage stage,
                       std::string* diagnostics = nullptr) {
  std::string src = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
                    "class Model(nn.Module):\n    def forward(self, x):\n        return " +
                    forward + "\n\n\ndef get_inputs():\n    return [torch.randn(" + input_shape +
                    ")]\n\n\ndef get_init_inputs():\n    return []\n";
  SourceFile file{"model.py", src};
  ConvertOptions options;
  options.emit = stage;
  ConvertResult r = convert(file, options);
  if (diagnostics) *diagnostics = r.diagnostics;
  return r.ok ? r.output : "";
}

std::string graph_of(const std::string& forward, const std::string& shape) {
  return convert_to(forward, shape, EmitStage::Graph);
}

TEST(Pooling, CeilModeKeepsOnlyWindowsThatStartInside) {
  // (6 + 2 - 3) / 2 rounded up + 1 = 4; the last window starts at 3 * 2 - 1 = 5 < 6 + 1: kept.
  EXPECT_NE(graph_of("F.max_pool1d(x, 3, stride=2, padding=1, ceil_mode=True)", "2, 3, 6").find("f32[2, 3, 4]"),
            std::string::npos);
  // (2 - 1) / 2 rounded up + 1 = 2; the last window would start at 2 >= 2 + 0: dropped.
  EXPECT_NE(graph_of("F.avg_pool1d(x, 1, stride=2, ceil_mode=True)", "2, 3, 2").find("f32[2, 3, 1]"),
            std::string::npos);
  // Without ceil_mode: (6 + 2 - 3) / 2 rounded down + 1 = 3.
  EXPECT_NE(graph_of("F.max_pool1d(x, 3, stride=2, padding=1)", "2, 3, 6").find("f32[2, 3, 3]"), std::string::npos);
}

TEST(Pooling, DilationAndRectangularWindows) {
  // 17 + 2 - 2*(3-1) - 1 = 14 // 2 + 1 = 8;  19 - 1*(2-1) - 1 = 17 // 1 + 1 = 18
  std::string g = graph_of("F.max_pool2d(x, (3, 2), stride=(2, 1), padding=(1, 0), dilation=(2, 1))", "2, 3, 17, 19");
  EXPECT_NE(g.find("max_pool %0 {3,2,1,2,2,1,0,1} : f32[2, 3, 8, 18]"), std::string::npos) << g;
}

TEST(Pooling, AdaptiveNoneKeepsTheInputSize) {
  std::string g = graph_of("F.adaptive_avg_pool2d(x, (None, 4))", "2, 3, 7, 9");
  EXPECT_NE(g.find("adaptive_avg_pool %0 {7,4} : f32[2, 3, 7, 4]"), std::string::npos) << g;
}

TEST(Pooling, GlobalPoolIsAReduction) {
  std::string k = convert_to("F.adaptive_max_pool2d(x, 1)", "2, 3, 7, 9", EmitStage::Kernels);
  EXPECT_NE(k.find("reduction space [2, 3, 7, 9] axes {2,3}"), std::string::npos) << k;
  k = convert_to("F.avg_pool2d(x, (7, 9))", "2, 3, 7, 9", EmitStage::Kernels);
  EXPECT_NE(k.find("reduction space [2, 3, 7, 9] axes {2,3}"), std::string::npos) << k;
}

TEST(Pooling, EvenAdaptivePoolIsAPlainPool) {
  std::string k = convert_to("F.adaptive_avg_pool2d(x, (3, 2))", "2, 3, 9, 8", EmitStage::Kernels);
  EXPECT_NE(k.find("window space [2, 3, 3, 2]: avg_pool*"), std::string::npos) << k;
  EXPECT_NE(k.find("pooled = acc / 12.0"), std::string::npos) << k;  // constant divisor 3 * 4
}

TEST(Pooling, ConsumersFuseAndPaddingIsMasked) {
  std::string k = convert_to("torch.relu(F.max_pool2d(x, 3, stride=2, padding=1)) * 2.0", "2, 3, 17, 19",
                             EmitStage::Kernels);
  EXPECT_NE(k.find("window space [2, 3, 9, 10]: max_pool relu mul*"), std::string::npos) << k;
  EXPECT_NE(k.find("other=float(\"-inf\")"), std::string::npos) << k;
  EXPECT_NE(k.find("ok_h = (h_in >= 0) & (h_in < 17)"), std::string::npos) << k;
}

TEST(Pooling, ExcludedPaddingDividesByTheValidCount) {
  std::string k = convert_to("F.avg_pool1d(x, 3, stride=2, padding=1, count_include_pad=False)", "2, 3, 11",
                             EmitStage::Kernels);
  EXPECT_NE(k.find("count_w = tl.minimum(w_start + 3, 11) - tl.maximum(w_start, 0)"), std::string::npos) << k;
}

TEST(Pooling, ReturnIndicesIsASecondWindowKernel) {
  std::string k = convert_to("F.max_pool2d(x, 2, return_indices=True)[1]", "2, 3, 8, 8", EmitStage::Kernels);
  EXPECT_NE(k.find("def max_pool2d_indices_kernel("), std::string::npos) << k;
  EXPECT_NE(k.find("idx = tl.where(take, h_in * 8 + w_in, idx)"), std::string::npos) << k;
  EXPECT_NE(k.find("idx.to(tl.int64)"), std::string::npos) << k;
}

TEST(Pooling, PaddingOverHalfTheKernelIsALocatedError) {
  std::string diag;
  convert_to("F.max_pool2d(x, 2, padding=2)", "2, 3, 8, 8", EmitStage::Triton, &diag);
  EXPECT_NE(diag.find("model.py:8:16: error: max_pool2d: pad should be at most half of effective kernel size"),
            std::string::npos)
      << diag;
}

}  // namespace
}  // namespace tz
