// conv_layout: see conv_layout.h.
#include "passes/conv_layout.h"

#include "graph/view.h"

namespace tz {

bool conv_uses_dot(const Node* conv) {
  return conv->shape[1] / conv->attr.ints2[0] >= kConvMinDotChannels;
}

// (see conv_layout.h)
bool unfolded_transposed(const Node* conv) {
  const Node* w = conv->src[1];
  if (conv->attr.ints2[1] == 0 || !conv_uses_dot(conv)) return false;
  if (conv->dtype != DType::Float16 && conv->dtype != DType::BFloat16) return false;
  const int nd = conv->rank() - 2;
  const auto& ints = conv->attr.ints;
  int64_t kvol = 1;
  for (int d = 0; d < nd; ++d) {
    const int64_t k = w->shape[static_cast<size_t>(d + 2)], s = ints[static_cast<size_t>(d)];
    const int64_t p = ints[static_cast<size_t>(nd + d)], dl = ints[static_cast<size_t>(2 * nd + d)];
    if (k != s || p != 0 || (k > 1 && dl != 1) || (k & (k - 1)) != 0) return false;
    if (conv->shape[static_cast<size_t>(d + 2)] != conv->src[0]->shape[static_cast<size_t>(d + 2)] * k) return false;
    kvol *= k;
  }
  return kvol > 1 && kvol <= 64;
}

namespace {

// permute(op(permute(x, perm)), perm^-1): x's values, computed by `op` into a buffer laid out in perm's order.
const Node* laid_out(Graph& out, const Node* x, const std::vector<int64_t>& perm, Op op, SourceLoc loc) {
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return out.permute(out.unary(op, out.permute(x, perm, loc), loc), inverse, loc);
}


// The weight (w is [C_out, C_in/g, *k], or [C_in, C_out/g, *k] when transposed) laid out with the kernel dims
// first, then: 16-bit, the input channels, then the output channels (C_out contiguous, coalesced tiles; no copy
// when already so); fp32, the output channels, then the input channels (K-major, see conv_layout.h), rounded.
// An unfolded transposed conv reads the weight contiguous as it is (copied when it is a non-contiguous view).
const Node* relayout_weight(Graph& out, const Node* conv, const Node* w) {
  int rank = w->rank();
  bool transposed = conv->attr.ints2[1] != 0;
  int64_t co_dim = transposed ? 1 : 0, ci_dim = transposed ? 0 : 1;
  bool fp32 = w->dtype == DType::Float32;
  std::vector<int64_t> st;
  if (unfolded_transposed(conv)) {
    if (view_strides(w, st)) {
      bool contiguous = true;
      int64_t run = 1;
      for (int d = rank - 1; d >= 0; --d) {
        contiguous = contiguous && (w->shape[static_cast<size_t>(d)] == 1 || st[static_cast<size_t>(d)] == run);
        run *= w->shape[static_cast<size_t>(d)];
      }
      if (contiguous) return w;
    }
    std::vector<int64_t> identity;
    for (int d = 0; d < rank; ++d) identity.push_back(d);
    return laid_out(out, w, identity, Op::Copy, conv->loc);
  }
  if (!fp32 && view_strides(w, st) && st[static_cast<size_t>(co_dim)] == 1) return w;
  std::vector<int64_t> perm;
  for (int d = 2; d < rank; ++d) perm.push_back(d);
  perm.push_back(fp32 ? co_dim : ci_dim);
  perm.push_back(fp32 ? ci_dim : co_dim);
  return laid_out(out, w, perm, fp32 ? Op::RoundTf32 : Op::Copy, conv->loc);
}

// The input in a channels-last buffer: fp32, rounded to TF32 (K-major, see conv_layout.h); 16-bit, copied unless
// it is channels-last already. Read NC*spatial, a 16-bit input tile is a gather of 2-byte loads along the
// positions (padding, dilation, stride and transposed-conv holes mask them one by one) which Triton cannot issue
// as cp.async, so the conv's loop does not pipeline (seen in the PTX); channels-last, each position's channels
// are one contiguous run of 16-byte loads. Measured on the H200: the dilated fp16 conv2d over a 127 x 191 image
// took 6.7 ms gathering NCHW (eager 1.7 ms), the strided bf16 convs came out right only channels-last.
// An unfolded transposed conv (one plain GEMM, lower_unfolded_transposed) reads the input as it is.
const Node* relayout_input(Graph& out, const Node* conv, const Node* x) {
  const bool fp32 = x->dtype == DType::Float32;
  if (!fp32 && unfolded_transposed(conv)) return x;
  std::vector<int64_t> st;
  if (!fp32 && view_strides(x, st) && (x->shape[1] == 1 || st[1] == 1)) return x;
  std::vector<int64_t> perm = {0};
  for (int d = 2; d < x->rank(); ++d) perm.push_back(d);
  perm.push_back(1);
  return laid_out(out, x, perm, fp32 ? Op::RoundTf32 : Op::Copy, conv->loc);
}

// A conv without tl.dot (a few channels a group: depthwise) puts consecutive output positions on consecutive
// lanes, so its input loads coalesce only when the input is contiguous along the last spatial dim. A view that
// is not (a channels-last tensor transposed to NCL / NCHW in forward) is read through a contiguous copy: fp32
// depthwise Conv1d over [64, 256, 16383] transposed from [64, 16383, 256] took 60 ms reading it by its strides
// (each 4-byte load its own 32-byte sector), eager 9 ms.
const Node* contiguous_input(Graph& out, const Node* conv, const Node* x) {
  std::vector<int64_t> st;
  int last = x->rank() - 1;
  if (!view_strides(x, st) || x->shape[static_cast<size_t>(last)] == 1 || st[static_cast<size_t>(last)] == 1) return x;
  return out.unary(Op::Copy, x, conv->loc);
}

}  // namespace

std::unique_ptr<Graph> conv_layout(const Graph& g) {
  return rewrite_graph(g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    if (old->op == Op::Conv && conv_uses_dot(old)) {
      return out.conv(relayout_input(out, old, src[0]), relayout_weight(out, old, src[1]), old->shape, old->attr,
                      old->loc);
    }
    if (old->op == Op::Conv) {
      return out.conv(contiguous_input(out, old, src[0]), src[1], old->shape, old->attr, old->loc);
    }
    return rebuild(out, old, src);
  });
}

}  // namespace tz
