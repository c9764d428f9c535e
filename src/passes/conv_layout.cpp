// conv_layout: see conv_layout.h.
#include "passes/conv_layout.h"

#include "graph/view.h"

namespace tz {

bool conv_uses_dot(const Node* conv) {
  return conv->shape[1] / conv->attr.ints2[0] >= kConvMinDotChannels;
}

namespace {

// conv(x, w) => conv(x, permute(copy(permute(w, p)), p^-1)), p putting the kernel dims first, then the
// input channels, then the output channels (w is [C_out, C_in/g, *k], or [C_in, C_out/g, *k] when transposed).
// In fp32 the copy is a round_tf32 (see conv_layout.h).
const Node* relayout_weight(Graph& out, const Node* conv, const Node* w) {
  int rank = w->rank();
  bool transposed = conv->attr.ints2[1] != 0;
  std::vector<int64_t> st;
  int co_dim = transposed ? 1 : 0, ci_dim = transposed ? 0 : 1;
  Op copy_op = w->dtype == DType::Float32 ? Op::RoundTf32 : Op::Copy;
  if (view_strides(w, st) && st[co_dim] == 1) {  // already output-channel-contiguous
    return copy_op == Op::Copy ? w : out.unary(Op::RoundTf32, w, conv->loc);
  }
  std::vector<int64_t> perm;
  for (int d = 2; d < rank; ++d) perm.push_back(d);
  perm.push_back(ci_dim);
  perm.push_back(co_dim);
  std::vector<int64_t> inverse(rank);
  for (int i = 0; i < rank; ++i) inverse[perm[i]] = i;
  const Node* copy = out.unary(copy_op, out.permute(w, perm, conv->loc), conv->loc);
  return out.permute(copy, inverse, conv->loc);
}

}  // namespace

std::unique_ptr<Graph> conv_layout(const Graph& g) {
  return rewrite_graph(g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    if (old->op == Op::Conv && conv_uses_dot(old)) {
      const Node* x = old->dtype == DType::Float32 ? out.unary(Op::RoundTf32, src[0], old->loc) : src[0];
      return out.conv(x, relayout_weight(out, old, src[1]), old->shape, old->attr, old->loc);
    }
    return rebuild(out, old, src);
  });
}

}  // namespace tz
