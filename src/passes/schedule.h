// Schedule: the graph partitioned into kernels (groups). Produced by fuse(), read by kernel lowering.
//
// A group is one kernel. Its iteration space (`space`) is the output shape of a pointwise group, the input shape
// of a reduction group (reductions over `axes`; values in the group are either "full" — shaped like `space` —
// or "reduced"), or the output shape of a matmul, conv, window (pooling) or attention group. Leaves (inputs,
// params, constants) and views of materialized values are not in any group: kernels read them through strided
// loads.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace tz {

enum class GroupKind { Pointwise, Reduction, Matmul, Conv, Window, Attention, Scan };

struct Group {
  int id = 0;
  GroupKind kind = GroupKind::Pointwise;
  Shape space;
  std::vector<int64_t> axes;              // Reduction: reduced axes of `space` (adjacent, sorted); Scan: {axis}
  // Reduction: a second set of reduced axes, disjoint from `axes` (fuse's two-axes merge: x.sum(0) beside
  // x.sum(1) read x once, kernel/lower_two_axes.cpp); empty for every other group.
  std::vector<int64_t> axes2;
  std::vector<const Node*> nodes;         // computed nodes in topological order (views of in-group values too)
  std::vector<const Node*> outputs;       // nodes this kernel writes to memory
  // Cheap pointwise values of other kernels (computed from inputs and parameters only) that this kernel
  // recomputes instead of reading them from memory, e.g. a broadcast cos(theta) feeding a large product.
  std::vector<const Node*> inlined;
  // Scan: cats (graph/view.h cat_pieces, also in `nodes`) that this kernel writes piece by piece, each piece
  // stored at its offset in the cat's buffer; never read inside the kernel.
  std::vector<const Node*> cats;
  bool writes_cat(const Node* n) const { return std::find(cats.begin(), cats.end(), n) != cats.end(); }
};

struct Schedule {
  std::unique_ptr<Graph> graph;
  std::vector<Group> groups;              // in execution order
  std::vector<int> group_of;              // node id -> group id, -1 for leaves and free views
  std::vector<char> materialized;         // node id -> written to memory by its group
};

std::string dump_schedule(const Schedule& s);  // the --emit=kernels groups section

}  // namespace tz
