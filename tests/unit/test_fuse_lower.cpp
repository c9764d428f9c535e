// Fusion and lowering on hand-built graphs: how many kernels, which ops each holds, and what is printed.
#include <gtest/gtest.h>

#include <cmath>

#include "emit/triton_printer.h"
#include "graph/graph.h"
#include "graph/view.h"
#include "kernel/lower.h"
#include "passes/decompose.h"
#include "passes/fuse.h"
#include "passes/fuse_attention.h"
#include "passes/sink_reshape.h"

namespace tz {
namespace {

struct Built {
  std::unique_ptr<Graph> g = std::make_unique<Graph>();
  const Node* in(const std::string& name, Shape s, DType t = DType::Float32) {
    g->inputs.push_back({name, s, t});
    return g->input(static_cast<int>(g->inputs.size()) - 1);
  }
  const Node* param(const std::string& path, Shape s) {
    g->params.push_back({path, s, DType::Float32});
    return g->param(path);
  }
};

std::string lower_to_text(Schedule& s, std::vector<std::string> names) {
  TileArena arena;
  LowerOptions opts;
  opts.input_names = std::move(names);
  ForwardPlan plan = lower(s, arena, opts);
  std::string out;
  for (const auto& k : plan.kernels) out += print_kernel(k);
  return out;
}

TEST(Fuse, SoftmaxOfScaledInputIsOneKernel) {
  Built b;
  const Node* x = b.in("x", {37, 130});
  const Node* scaled = b.g->binary(Op::Mul, x, b.g->constant(2.0, DType::Float32));
  Attr a;
  a.ints = {1};
  b.g->outputs = {b.g->make(Op::Softmax, DType::Float32, {37, 130}, {scaled}, a)};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].kind, GroupKind::Reduction);
  std::string text = lower_to_text(s, {"x"});
  EXPECT_NE(text.find("_nan_max, keep_dims=True)"), std::string::npos) << text;  // NaN-keeping max
  EXPECT_NE(text.find("tl.sum("), std::string::npos) << text;
  EXPECT_NE(text.find("tl.exp("), std::string::npos) << text;
}

TEST(Fuse, LinearBiasReluIsOneMatmulKernel) {
  Built b;
  const Node* x = b.in("x", {33, 70});
  const Node* w = b.param("fc.weight", {47, 70});
  const Node* bias = b.param("fc.bias", {47});
  const Node* y = b.g->matmul(x, b.g->permute(w, {1, 0}));
  b.g->outputs = {b.g->unary(Op::Relu, b.g->binary(Op::Add, y, bias))};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].kind, GroupKind::Matmul);
  std::string text = lower_to_text(s, {"x"});
  EXPECT_NE(text.find("tl.dot("), std::string::npos) << text;
  EXPECT_NE(text.find("fc_bias_ptr"), std::string::npos) << text;
}

TEST(Fuse, ReductionOfPermutedInputReadsByStrides) {
  Built b;
  const Node* x = b.in("x", {8, 16, 24});
  const Node* p = b.g->permute(x, {2, 0, 1});
  b.g->outputs = {b.g->reduce(Op::Sum, p, {1}, false)};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  std::string text = lower_to_text(s, {"x"});
  EXPECT_NE(text.find("x_ptr"), std::string::npos) << text;
}

TEST(Fuse, PointwiseAfterReductionWithOtherShapeStartsAKernel) {
  Built b;
  const Node* x = b.in("x", {64, 32});
  const Node* s1 = b.g->reduce(Op::Sum, x, {1}, false);       // [64]
  const Node* t = b.g->reshape(s1, {8, 8});                     // merges dims: not a dim map
  b.g->outputs = {b.g->unary(Op::Exp, t)};
  Schedule s = fuse(decompose(*b.g));
  EXPECT_EQ(s.groups.size(), 2u);
}

// softmax(where(mask, -inf, (q @ k^T) * c)) @ v, built by hand; `extra_use` also returns the scores.
std::unique_ptr<Graph> attention_graph(Built& b, bool extra_use) {
  const Node* q = b.in("q", {2, 3, 37, 20});
  const Node* k = b.in("k", {2, 3, 45, 20});
  const Node* v = b.in("v", {2, 3, 45, 24});
  const Node* m = b.in("m", {37, 45}, DType::Bool);
  const Node* s = b.g->binary(Op::Mul, b.g->matmul(q, b.g->permute(k, {0, 1, 3, 2})),
                              b.g->constant(0.25, DType::Float32));
  const Node* masked = b.g->where(m, b.g->constant(-INFINITY, DType::Float32), s);
  Attr a;
  a.ints = {3};
  const Node* p = b.g->make(Op::Softmax, DType::Float32, masked->shape, {masked}, a);
  b.g->outputs = {b.g->matmul(p, v)};
  if (extra_use) b.g->outputs.push_back(s);
  return std::move(b.g);
}

TEST(FuseAttention, WrittenOutAttentionIsOneFlashKernel) {
  Built b;
  std::unique_ptr<Graph> g = fuse_attention(*attention_graph(b, false));
  const Node* out = g->outputs[0];
  ASSERT_EQ(out->op, Op::Attention);
  EXPECT_EQ(out->attr.ints, (std::vector<int64_t>{0, 2, 0}));  // not causal, where(mask, fill, s), NaN rows
  EXPECT_EQ(out->attr.floats[0], 0.25);
  Schedule s = fuse(decompose(*g));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].kind, GroupKind::Attention);
  std::string text = lower_to_text(s, {"q", "k", "v", "m"});
  EXPECT_NE(text.find("for n0 in range(0, S, BLOCK_N):"), std::string::npos) << text;
  EXPECT_NE(text.find("s = tl.where(mask, float(\"-inf\"), s)"), std::string::npos) << text;
  EXPECT_NE(text.find("tl.exp2("), std::string::npos) << text;
  // Keys past S (45 is not a multiple of the block) are masked out of the softmax.
  EXPECT_NE(text.find("s = tl.where(cols[None, :] < S, s, float(\"-inf\"))"), std::string::npos) << text;
}

TEST(FuseAttention, ScaledQueryIsFoldedIntoTheScale) {
  Built b;
  const Node* q = b.in("q", {3, 37, 20});
  const Node* qs = b.g->binary(Op::Mul, q, b.g->constant(0.5, DType::Float32));
  const Node* s = b.g->binary(Op::Div, b.g->matmul(qs, b.g->permute(q, {0, 2, 1})), b.g->constant(4.0, DType::Float32));
  Attr a;
  a.ints = {2};
  b.g->outputs = {b.g->matmul(b.g->make(Op::Softmax, DType::Float32, s->shape, {s}, a), q)};
  std::unique_ptr<Graph> g = fuse_attention(*b.g);
  const Node* out = g->outputs[0];
  ASSERT_EQ(out->op, Op::Attention);
  EXPECT_EQ(out->src[0], g->nodes()[0].get());  // the unscaled input
  EXPECT_EQ(out->attr.floats[0], 0.125);
}

TEST(FuseAttention, ScoresUsedElsewhereAreNotFused) {
  Built b;
  std::unique_ptr<Graph> g = fuse_attention(*attention_graph(b, true));
  EXPECT_EQ(g->outputs[0]->op, Op::Matmul);
}

TEST(FuseAttention, CausalLoopStopsAtTheDiagonal) {
  Built b;
  const Node* q = b.in("q", {4, 37, 20});
  Attr a;
  a.ints = {1, 0, 1};
  a.floats = {0.5, -INFINITY};
  b.g->outputs = {b.g->attention(q, b.g->permute(q, {0, 2, 1}), q, nullptr, a)};
  Schedule s = fuse(decompose(*b.g));
  std::string text = lower_to_text(s, {"q"});
  // Blocks left of the diagonal run without the causal mask; the diagonal block ends the loop.
  EXPECT_NE(text.find("for n0 in range(0, min(lo, S), BLOCK_N):"), std::string::npos) << text;
  EXPECT_NE(text.find("for n0 in range(lo, min((pid_m + 1) * BLOCK_M, S), BLOCK_N):"), std::string::npos) << text;
  EXPECT_NE(text.find("tl.where(rm[:, None] >= cols[None, :], s, float(\"-inf\"))"), std::string::npos) << text;
}

TEST(Lower, TrilIndexesRowAndColumnOfAFlatKernel) {
  Built b;
  const Node* x = b.in("x", {3, 40, 20});
  Attr a;
  a.ints = {1, 1};  // triu(x, diagonal=1)
  b.g->outputs = {b.g->binary(Op::Mul, b.g->make(Op::Tri, DType::Float32, x->shape, {x}, a),
                              b.g->constant(2.0, DType::Float32))};
  Schedule s = fuse(decompose(*b.g));
  std::string text = lower_to_text(s, {"x"});
  EXPECT_NE(text.find("tl.where(offs % 20 - offs // 20 % 40 >= 1, x, 0.0)"), std::string::npos) << text;
}

// cosine similarity's three sums over one space and axes: one kernel reads a and b once.
TEST(Fuse, SiblingReductionsOverTheSameInputsShareAKernel) {
  Built b;
  const Node* a = b.in("a", {37, 130});
  const Node* c = b.in("c", {37, 130});
  auto sum1 = [&](const Node* x, const Node* y) { return b.g->reduce(Op::Sum, b.g->binary(Op::Mul, x, y), {1}, false); };
  // In this order (as the tracer builds it): a later sibling joins a kernel that reads one of its inputs.
  const Node* dot = sum1(a, c);
  const Node* na = sum1(a, a);
  const Node* nc = sum1(c, c);
  b.g->outputs = {b.g->binary(Op::Div, dot, b.g->unary(Op::Sqrt, b.g->binary(Op::Mul, na, nc)))};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  std::string text = lower_to_text(s, {"a", "c"});
  EXPECT_EQ(text.find("a_ptr + (rows * 130 + r)"), text.rfind("a_ptr + (rows * 130 + r)")) << text;  // one load
}

// A reduction of x joins the kernel reducing a pointwise value of x over the same axes ((x * x).sum() next to
// x.amax()): one read of x for both.
TEST(Fuse, ReductionOfAnInputJoinsTheKernelOfItsPointwiseSibling) {
  Built b;
  const Node* x = b.in("x", {37, 130});
  const Node* sq = b.g->reduce(Op::Sum, b.g->binary(Op::Mul, x, x), {1}, false);
  const Node* mx = b.g->reduce(Op::Max, x, {1}, false);
  b.g->outputs = {b.g->binary(Op::Add, sq, mx)};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  std::string text = lower_to_text(s, {"x"});
  EXPECT_EQ(text.find("x_ptr + (rows * 130 + r)"), text.rfind("x_ptr + (rows * 130 + r)")) << text;  // one load
}

// Reductions over other axes do not join as siblings (that rule needs the same axes); two reduction kernels of
// one input over disjoint axes then merge into one kernel with two axis sets (Group::axes2), which reads a once.
TEST(Fuse, SiblingReductionsOverOtherAxesMergeAsTwoAxes) {
  Built b;
  const Node* a = b.in("a", {37, 130});
  const Node* r0 = b.g->reduce(Op::Sum, b.g->unary(Op::Exp, a), {1}, false);
  const Node* r1 = b.g->reduce(Op::Sum, b.g->unary(Op::Neg, a), {0}, false);
  b.g->outputs = {r0, r1};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].axes, std::vector<int64_t>{1});
  EXPECT_EQ(s.groups[0].axes2, std::vector<int64_t>{0});
}

// Reductions over other axes of different inputs stay apart (nothing is read twice).
TEST(Fuse, ReductionsOfOtherInputsOverOtherAxesStayApart) {
  Built b;
  const Node* a = b.in("a", {37, 130});
  const Node* c = b.in("c", {37, 130});
  b.g->outputs = {b.g->reduce(Op::Sum, a, {1}, false), b.g->reduce(Op::Sum, c, {0}, false)};
  Schedule s = fuse(decompose(*b.g));
  EXPECT_EQ(s.groups.size(), 2u);
}

// Looped rows (longer than one register tile): the max takes one pass, then the two sums that both read
// x - max share the second pass; the iota picks the target's column.
TEST(Lower, LoopedSiblingReductionsShareOnePass) {
  Built b;
  const Node* x = b.in("x", {5, 40000});
  const Node* t = b.in("t", {5, 1}, DType::Int64);
  const Node* m = b.g->reduce(Op::Max, x, {1}, true);
  const Node* xm = b.g->binary(Op::Sub, x, m);
  const Node* lse = b.g->unary(Op::Log, b.g->reduce(Op::Sum, b.g->unary(Op::Exp, xm), {1}, true));
  const Node* iota = b.g->make(Op::Iota, DType::Int64, {40000}, {});
  const Node* hit = b.g->binary(Op::Eq, iota, t);
  const Node* picked = b.g->reduce(Op::Sum, b.g->where(hit, xm, b.g->constant(0.0, DType::Float32)), {1}, true);
  b.g->outputs = {b.g->binary(Op::Sub, lse, picked)};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  std::string text = lower_to_text(s, {"x", "t"});
  size_t loops = 0;
  for (size_t at = text.find("for r0 in"); at != std::string::npos; at = text.find("for r0 in", at + 1)) ++loops;
  EXPECT_EQ(loops, 2u) << text;
  // the target's logit is one load at t after the loops (a pick: values.h), not a compare in every chunk
  EXPECT_NE(text.find("x_ptr + (rows * 40000 + t), mask=pick_in"), std::string::npos) << text;
  EXPECT_EQ(text.find("== t"), std::string::npos) << text;
}

TEST(Fuse, MaskedCumsumIsOneScanKernel) {
  Built b;
  const Node* x = b.in("x", {7, 1031});
  const Node* m = b.in("mask", {7, 1031}, DType::Bool);
  const Node* c = b.g->scan(Op::Cumsum, b.g->binary(Op::Mul, x, m), 1, false);
  b.g->outputs = {b.g->binary(Op::Sub, c, x)};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].kind, GroupKind::Scan);
  std::string text = lower_to_text(s, {"x", "mask"});
  EXPECT_NE(text.find("_aten_scan_tile("), std::string::npos) << text;  // ATen's row order
}

TEST(Fuse, ColumnScanOfARowFactorProductIsOneKernel) {
  // cumsum(x * mask.unsqueeze(-1), dim=1): the mask varies along the scanned dim alone; it is loaded as a 1-D tile
  // and expanded (a [BLOCK_R, 1] load gave the whole tile its layout: lower_scan.cpp).
  Built b;
  const Node* x = b.in("x", {3, 41, 131});
  const Node* m = b.in("mask", {3, 41, 1}, DType::Bool);
  b.g->outputs = {b.g->scan(Op::Cumsum, b.g->binary(Op::Mul, x, m), 1, false)};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].kind, GroupKind::Scan);
  std::string text = lower_to_text(s, {"x", "mask"});
  EXPECT_NE(text.find("r_line = r0 + tl.arange(0, BLOCK_R)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("mask=r_line_mask)[:, None]"), std::string::npos) << text;
}

TEST(Lower, BoolScansAccumulateInInt32WhereExact) {
  // A cumsum of R values in {0, 1} fits int32 for R < 2^31; int64 values are not bounded by their type.
  Built b, c;
  b.g->outputs = {b.g->scan(Op::Cumsum, b.in("m", {7, 1031}, DType::Bool), 1, false)};
  Schedule sb = fuse(decompose(*b.g));
  std::string bools = lower_to_text(sb, {"m"});
  EXPECT_NE(bools.find("m.to(tl.int32), 0), axis=1).to(tl.int64)"), std::string::npos)
      << bools;
  c.g->outputs = {c.g->scan(Op::Cumsum, c.in("n", {7, 1031}, DType::Int64), 1, false)};
  Schedule sc = fuse(decompose(*c.g));
  std::string ints = lower_to_text(sc, {"n"});
  EXPECT_EQ(ints.find("tl.int32"), std::string::npos) << ints;
}

TEST(Lower, WholeTensorAndIntegerScansKeepTreeOrder) {
  // One non-unit dim: CUB's look-back order in eager, not reproducible; integers: exact in any order.
  Built b;
  const Node* x = b.in("x", {1, 5000});
  const Node* n = b.in("n", {3, 700}, DType::Int64);
  b.g->outputs = {b.g->scan(Op::Cumsum, x, 1, false), b.g->scan(Op::Cumsum, n, 1, false)};
  Schedule s = fuse(decompose(*b.g));
  std::string text = lower_to_text(s, {"x", "n"});
  EXPECT_NE(text.find("tl.cumsum("), std::string::npos) << text;
  EXPECT_EQ(text.find("_aten_scan_tile("), std::string::npos) << text;
}

TEST(Lower, LongReverseScanWalksTheFlippedRowInAtenTiles) {
  Built b;
  const Node* x = b.in("x", {3, 5000});
  b.g->outputs = {b.g->scan(Op::Cumprod, x, 1, true)};
  Schedule s = fuse(decompose(*b.g));
  std::string text = lower_to_text(s, {"x"});
  // The flipped row in its own order, in ATen's tiles of 1024 (3 rows of 5000: log_x = 9).
  // (loaded in increasing address order; the tile helper walks it backwards)
  EXPECT_NE(text.find("r = R - BLOCK_R - r0 + tl.arange(0, BLOCK_R)[None, :]"), std::string::npos) << text;
  EXPECT_NE(text.find("r_mask = r >= 0"), std::string::npos) << text;
  EXPECT_NE(text.find("BLOCK_M, BLOCK_R, 10, True, tl.float32, True)"), std::string::npos) << text;
  EXPECT_NE(text.find("scan_in * carry"), std::string::npos) << text;
}

TEST(Lower, ColumnScanKeepsItsAxisUnmerged) {
  Built b;
  const Node* x = b.in("x", {4, 6, 37, 5});
  b.g->outputs = {b.g->scan(Op::Cumsum, x, 2, false)};
  Schedule s = fuse(decompose(*b.g));
  std::string text = lower_to_text(s, {"x"});
  // ATen's outer scan: a sequential fold per column, one row of the chunk at a time.
  EXPECT_NE(text.find("for k in tl.static_range(BLOCK_R):"), std::string::npos) << text;
  EXPECT_NE(text.find("acc = acc + tl.sum("), std::string::npos) << text;
  EXPECT_NE(text.find("axis=0"), std::string::npos) << text;
  EXPECT_NE(text.find("r * 5"), std::string::npos) << text;
}

TEST(View, FlipSliceAndPadLayouts) {
  Built b;
  const Node* x = b.in("x", {4, 6});
  std::vector<int64_t> st;
  int64_t off = 0;
  ASSERT_TRUE(view_layout(b.g->flip(x, {1}), st, off));
  EXPECT_EQ(st, (std::vector<int64_t>{6, -1}));
  EXPECT_EQ(off, 5);
  ASSERT_TRUE(view_layout(b.g->slice(b.g->flip(x, {0}), 1, 2, 2, 2), st, off));  // flip(x, 0)[:, 2:5:2]
  EXPECT_EQ(st, (std::vector<int64_t>{-6, 2}));
  EXPECT_EQ(off, 18 + 2);
  const Node* p = b.g->pad(x, 0, 3, 1);
  ASSERT_TRUE(view_layout(p, st, off));
  EXPECT_EQ(off, -18);
  EXPECT_EQ(view_pads(p)[0].lo, 3);
  EXPECT_EQ(view_pads(p)[0].hi, 7);
  EXPECT_FALSE(view_layout(b.g->permute(p, {1, 0}), st, off));  // a pad stays at the top of a chain
  const Node* pp = b.g->pad(p, 1, 0, 2);  // ...but a pad may sit on a pad: x padded along both dims
  ASSERT_TRUE(view_layout(pp, st, off));
  EXPECT_EQ(st, (std::vector<int64_t>{6, 1}));
  EXPECT_EQ(off, -18);
  ASSERT_EQ(view_pads(pp).size(), 2u);
  EXPECT_EQ(view_pads(pp)[0].dim, 1);
  EXPECT_EQ(view_pads(pp)[0].hi, 6);
  EXPECT_EQ(view_pads(pp)[1].dim, 0);
  // A 0-d constant viewed with unit dims is a strided view.
  EXPECT_TRUE(view_strides(b.g->reshape(b.g->constant(1.0, DType::Float32), {1, 1}), st));
}

TEST(Decompose, ReverseScanFromFlips) {
  Built b;
  const Node* x = b.in("x", {5, 9});
  const Node* c = b.g->scan(Op::Cumsum, b.g->flip(x, {1}), 1, false);
  b.g->outputs = {b.g->flip(c, {1})};
  std::string dump = dump_graph(*decompose(*b.g));
  EXPECT_NE(dump.find("cumsum %0 {1,1}"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("flip"), std::string::npos) << dump;
}

TEST(Lower, CatReadsEachPartWithItsRange) {
  Built b;
  const Node* x = b.in("x", {5, 7});
  const Node* y = b.in("y", {5, 3});
  b.g->outputs = {b.g->binary(Op::Add, b.g->pad(x, 1, 0, 3), b.g->pad(y, 1, 7, 0))};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  std::string text = lower_to_text(s, {"x", "y"});
  EXPECT_NE(text.find("< 7), other=0.0)"), std::string::npos) << text;
  EXPECT_NE(text.find(">= 7), other=0.0)"), std::string::npos) << text;
  EXPECT_NE(text.find("y_ptr + (i0 * 3 + i1 - 7)"), std::string::npos) << text;
}

TEST(Decompose, NonAdjacentReductionSplits) {
  Built b;
  const Node* x = b.in("x", {4, 5, 6});
  b.g->outputs = {b.g->reduce(Op::Sum, x, {0, 2}, false)};
  auto d = decompose(*b.g);
  std::string dump = dump_graph(*d);
  EXPECT_NE(dump.find("sum %0 {2} keepdim"), std::string::npos) << dump;
  EXPECT_NE(dump.find("sum %1 {0} keepdim"), std::string::npos) << dump;
}

// norm_mean/norm_var over `axes` of x: the schedule's kernels as (kind, space) text.
std::string moments_kernels(Shape shape, std::vector<int64_t> axes) {
  Built b;
  const Node* x = b.in("x", shape);
  Shape out = shape;
  for (auto a : axes) out[a] = 1;
  Attr a;
  a.ints = axes;
  const Node* mean = b.g->make(Op::NormMean, DType::Float32, out, {x}, a);
  const Node* var = b.g->make(Op::NormVar, DType::Float32, out, {x}, a);
  b.g->outputs = {b.g->binary(Op::Mul, b.g->binary(Op::Sub, x, mean), b.g->unary(Op::Rsqrt, var))};
  Schedule s = fuse(decompose(*b.g));
  std::string text;
  for (const auto& grp : s.groups) {
    text += (grp.kind == GroupKind::Reduction ? "reduce " : "pointwise ") + shape_str(grp.space) + ";";
  }
  return text;
}

TEST(Decompose, NormStatsOfShortRowsFuseWithTheNormalisation) {
  // rows of 29 * 37 elements fit one tile: statistics and output in one kernel, one read of x
  EXPECT_EQ(moments_kernels({3, 5, 29, 37}, {2, 3}), "reduce [3, 5, 29, 37];");
}

TEST(Decompose, NormStatsOverBatchAndImagePermuteChannelsFirst) {
  // BatchNorm2d: [N, C, H, W] over {0, 2, 3} reads [C, N, H, W]; 64 * 64 * 64 per channel is cut into chunks of
  // 4 images (16384 elements), combined over the 16 chunks of each channel (rsqrt of the [1, C, 1, 1] variance
  // is its own small kernel here; the tracer computes per-channel values on [C], in the second kernel)
  EXPECT_EQ(moments_kernels({64, 8, 64, 64}, {0, 2, 3}),
            "reduce [8, 16, 4, 64, 64];reduce [8, 16];pointwise [1, 8, 1, 1];pointwise [64, 8, 64, 64];");
}

TEST(Decompose, NormStatsOverLeadingDimAreColumns) {
  // BatchNorm1d on [N, C]: reduced in place as columns, N cut into chunks of up to 256 rows
  EXPECT_EQ(moments_kernels({1024, 300}, {0}), "reduce [4, 256, 300];reduce [4, 300];pointwise [1024, 300];");
}

TEST(Fuse, BufferUpdateRunsAfterTheOtherReaders) {
  Built b;
  const Node* x = b.in("x", {37});
  const Node* count = b.param("count", {37});
  // forward returns x * count and sets count = count + 1: the update kernel must come last
  const Node* next = b.g->binary(Op::Add, count, b.g->constant(1.0, DType::Float32));
  b.g->updates.push_back({"count", b.g->binary(Op::Mul, next, b.g->constant(1.0, DType::Float32))});
  b.g->outputs = {b.g->binary(Op::Mul, b.g->unary(Op::Exp, x), count)};
  Schedule s = fuse(std::move(b.g));
  ASSERT_EQ(s.groups.size(), 2u);
  EXPECT_EQ(s.groups[1].outputs.size(), 1u);
  EXPECT_EQ(s.groups[1].outputs[0]->op, Op::Copy);
  std::string text = lower_to_text(s, {"x"});
  EXPECT_NE(text.find("tl.store(count_ptr"), std::string::npos) << text;
}

TEST(SinkReshape, ActivationOfReshapedValueMovesBeforeTheReshape) {
  Built b;
  const Node* x = b.in("x", {4, 6});
  const Node* e = b.g->unary(Op::Exp, x);
  const Node* r = b.g->reshape(e, {2, 12});
  b.g->outputs = {b.g->binary(Op::Mul, b.g->unary(Op::Sigmoid, r), r)};
  auto g = sink_reshape(*b.g);
  const Node* out = g->outputs[0];
  ASSERT_EQ(out->op, Op::Reshape);
  EXPECT_EQ(out->src[0]->op, Op::Mul);
  EXPECT_EQ(out->src[0]->shape, (Shape{4, 6}));
  Schedule s = fuse(std::move(g));
  EXPECT_EQ(s.groups.size(), 1u);
}

}  // namespace
}  // namespace tz

namespace tz {
namespace {

const Node* conv(Built& b, const Node* x, const Node* w, Shape out, std::vector<int64_t> ints, int64_t groups,
                 bool transposed = false) {
  Attr a;
  a.ints = std::move(ints);
  a.ints2 = {groups, transposed ? 1 : 0};
  return b.g->conv(x, w, std::move(out), a);
}

TEST(FuseConv, BiasAndReluJoinTheConvKernel) {
  Built b;
  const Node* x = b.in("x", {2, 5, 13, 11});
  const Node* w = b.param("conv.weight", {19, 5, 3, 3});
  const Node* bias = b.g->reshape(b.param("conv.bias", {19}), {19, 1, 1});
  const Node* y = conv(b, x, w, {2, 19, 13, 11}, {1, 1, 1, 1, 1, 1}, 1);
  b.g->outputs = {b.g->unary(Op::Relu, b.g->binary(Op::Add, y, bias))};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  EXPECT_EQ(s.groups[0].kind, GroupKind::Conv);
  std::string text = lower_to_text(s, {"x"});
  EXPECT_NE(text.find("def fused_conv2d_add_relu_kernel("), std::string::npos) << text;
  EXPECT_NE(text.find("tl.dot(wt, xt, acc, input_precision=PRECISION)"), std::string::npos) << text;
  // padding 1 on both sides of both dims: all four bounds are checked
  EXPECT_NE(text.find("valid = (i0 >= 0) & (i0 < 13) & (i1 >= 0) & (i1 < 11)"), std::string::npos) << text;
}

TEST(FuseConv, DepthwiseAccumulatesWithoutDot) {
  Built b;
  const Node* x = b.in("x", {2, 7, 23, 19});
  const Node* w = b.param("conv.weight", {7, 1, 3, 3});
  b.g->outputs = {conv(b, x, w, {2, 7, 12, 10}, {2, 2, 1, 1, 1, 1}, 7)};
  Schedule s = fuse(decompose(*b.g));
  ASSERT_EQ(s.groups.size(), 1u);
  std::string text = lower_to_text(s, {"x"});
  EXPECT_EQ(text.find("tl.dot("), std::string::npos) << text;
  EXPECT_NE(text.find("grp = tl.program_id(1)"), std::string::npos) << text;
  EXPECT_NE(text.find("acc = acc + wv[:, None] * xv[None, :]"), std::string::npos) << text;
}

TEST(FuseConv, StridedTransposedConvSplitsByPhase) {
  Built b;
  const Node* x = b.in("x", {2, 9, 5, 7});
  const Node* w = b.param("up.weight", {9, 10, 4, 4});
  b.g->outputs = {conv(b, x, w, {2, 10, 10, 14}, {2, 2, 1, 1, 1, 1}, 1, true)};
  Schedule s = fuse(decompose(*b.g));
  std::string text = lower_to_text(s, {"x"});
  // H is split by phase (no stride-hole mask); the last dim of a dot conv stays whole, its holes masked, so that
  // the output tile's positions along it are contiguous (lower_conv.cpp)
  EXPECT_NE(text.find("phase = tl.program_id(0) % 2"), std::string::npos) << text;
  EXPECT_NE(text.find("i0 = q0 + base0 - j0"), std::string::npos) << text;
  EXPECT_EQ(text.find("t0 % 2 == 0"), std::string::npos) << text;
  EXPECT_NE(text.find("t1 % 2 == 0"), std::string::npos) << text;
}

}  // namespace
}  // namespace tz
