// Graph: owns and interns nodes; records the forward inputs, the module's parameters and the outputs.
// Builders check their invariants (shapes broadcast, dtypes agree) and throw InternalError when a caller
// passes something the op does not accept: the tracer checks user-facing conditions first, with locations.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/node.h"

namespace tz {

struct InputSpec {
  std::string name;  // forward parameter name
  Shape shape;  // of the tensor in memory (contiguous)
  DType dtype;
  // forward receives that tensor permuted by perm (as get_inputs() returns it); empty: as it is
  std::vector<int64_t> perm = {};
};

struct ParamSpec {
  std::string path;  // "fc.weight"
  Shape shape;
  DType dtype;
};

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  // Generic interning constructor; `shape`/`dtype` must already be the op's result.
  const Node* make(Op op, DType dtype, Shape shape, std::vector<const Node*> src, Attr attr = {},
                   SourceLoc loc = {});

  // Builders with the op's typing rules.
  const Node* input(int index);
  const Node* param(const std::string& path);
  const Node* constant(double value, DType dtype);
  const Node* unary(Op op, const Node* x, SourceLoc loc = {});
  const Node* cast(const Node* x, DType to, SourceLoc loc = {});
  const Node* binary(Op op, const Node* a, const Node* b, SourceLoc loc = {});  // broadcasting, promoted
  const Node* where(const Node* c, const Node* a, const Node* b, SourceLoc loc = {});
  // `str` as documented for the op in ops.def ("dot" on a matrix product's sum).
  const Node* reduce(Op op, const Node* x, std::vector<int64_t> axes, bool keepdim, SourceLoc loc = {},
                     std::string str = {});
  const Node* scan(Op op, const Node* x, int64_t axis, bool reverse, SourceLoc loc = {});
  const Node* reshape(const Node* x, Shape shape, SourceLoc loc = {});
  const Node* permute(const Node* x, std::vector<int64_t> perm, SourceLoc loc = {});
  const Node* expand(const Node* x, Shape shape, SourceLoc loc = {});
  const Node* flip(const Node* x, std::vector<int64_t> dims, SourceLoc loc = {});
  const Node* slice(const Node* x, int64_t dim, int64_t start, int64_t length, int64_t step, SourceLoc loc = {});
  const Node* pad(const Node* x, int64_t dim, int64_t before, int64_t after, SourceLoc loc = {});
  const Node* matmul(const Node* a, const Node* b, SourceLoc loc = {});  // rank >= 2 both
  // Convolution (see ops.def for `attr`); `out` is the output shape the caller computed. x and w share a dtype.
  const Node* conv(const Node* x, const Node* w, Shape out, Attr attr, SourceLoc loc = {});
  // x at the positions `index` names along `dim` (ops.def: gather); the caller checked PyTorch's shape rule.
  const Node* gather(const Node* x, int64_t dim, const Node* index, SourceLoc loc = {});
  // softmax(scale * q @ kt, masked) @ v; `attr` as documented in ops.def; mask may be null.
  const Node* attention(const Node* q, const Node* kt, const Node* v, const Node* mask, Attr attr, SourceLoc loc = {});

  std::vector<InputSpec> inputs;
  std::vector<ParamSpec> params;
  std::vector<const Node*> outputs;
  bool output_is_tuple = false;  // forward returned a tuple/list (outputs in order)
  // In-place updates of module buffers (BatchNorm's running statistics): after forward, the buffer `path`
  // holds the value of `value`, whose shape has the buffer's element count. Every read of that buffer in the
  // graph sees its value before the update.
  struct Update {
    std::string path;
    const Node* value;
  };
  std::vector<Update> updates;

  const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }
  const ParamSpec* find_param(const std::string& path) const;

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
  std::unordered_map<std::string, const Node*> interned_;
};

// Shape of a numpy-style broadcast; returns false when the shapes do not broadcast.
bool broadcast_shapes(const Shape& a, const Shape& b, Shape& out);

// Builds a new graph from the part of `g` reachable from its outputs and updates, visiting nodes in topological order.
// `rewrite(out, old, new_src)` returns the replacement of `old` built in `out` from its already-rewritten
// sources. Inputs, params, outputs and updates are carried over. Local rewrite passes are written on top of this.
using RewriteFn = std::function<const Node*(Graph& out, const Node* old, const std::vector<const Node*>& src)>;
std::unique_ptr<Graph> rewrite_graph(const Graph& g, const RewriteFn& rewrite);
// Rebuilds `old` in `out` unchanged except for its sources.
const Node* rebuild(Graph& out, const Node* old, const std::vector<const Node*>& src);

std::string dump_graph(const Graph& g);  // the --emit=graph text

// Node id -> reachable from the outputs or the updates.
std::vector<char> live_nodes(const Graph& g);

// Verifier: structural invariants (shapes, dtypes, topological order); throws InternalError on a break.
void verify(const Graph& g);

}  // namespace tz
