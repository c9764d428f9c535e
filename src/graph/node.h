// The tensor graph IR. A Node is uniform and immutable: (op, dtype, shape, src, attr). Nodes are created only
// through Graph, which interns them (structurally equal nodes are the same pointer) and owns them.
// Semantics of each op are documented once, in ops.def.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/dtype.h"
#include "support/diagnostics.h"

namespace tz {

enum class Op {
#define OP(name, text, kind) name,
#include "graph/ops.def"
#undef OP
};

enum class OpKind {
  Leaf, Unary, Binary, Ternary, Reduce, Scan, View, Matmul, Conv, Window, Gather, Attention, Composite
};

const char* op_name(Op op);
OpKind op_kind(Op op);
inline bool is_pointwise(Op op) {
  OpKind k = op_kind(op);
  return k == OpKind::Unary || k == OpKind::Binary || k == OpKind::Ternary;
}

using Shape = std::vector<int64_t>;
int64_t numel(const Shape& s);
std::string shape_str(const Shape& s);  // "[2, 3]"
Shape contiguous_strides(const Shape& s);

struct Attr {
  std::vector<int64_t> ints;
  std::vector<int64_t> ints2;
  double f = 0.0;
  std::vector<double> floats;  // scalar options of a composite (e.g. softplus {beta, threshold})
  std::string str;
  bool operator==(const Attr&) const = default;
};

struct Node {
  int id;  // dense, in creation order (a topological order)
  Op op;
  DType dtype;
  Shape shape;
  std::vector<const Node*> src;
  Attr attr;
  SourceLoc loc;  // the source line that produced it (first creation wins when interned)

  int rank() const { return static_cast<int>(shape.size()); }
  bool keepdim() const { return !attr.ints2.empty() && attr.ints2[0] != 0; }
};

// The number of trailing dims a pooling (Window) node pools over.
inline int pooled_dims(const Node* n) {
  bool adaptive = n->op == Op::AdaptiveMaxPool || n->op == Op::AdaptiveAvgPool;
  return static_cast<int>(adaptive ? n->attr.ints.size() : n->attr.ints.size() / 4);
}

}  // namespace tz
