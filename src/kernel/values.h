// ValueEmitter: computes the values of one kernel's nodes over its tile. Shared by every kernel kind: the kind
// decides the tile (which kernel dims map to which tile axis, their index expressions and masks) and how
// reductions run; this class turns pointwise ops, loads through views and stores into tile IR.
//
// Index model: a kernel iterates over `space` (its group's shape). Every value is read with a dim map (each of
// its dims -> a kernel dim, or -1). Adjacent kernel dims that every access walks with compatible strides are
// merged; `rep[d]` is the representative (innermost) dim of d's merged run (-1 for unit dims), and only
// representatives carry an index expression.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernel/build.h"
#include "passes/schedule.h"

namespace tz {

// Names of the tensors a kernel touches: a root node -> its pointer parameter.
struct KernelBuffers {
  std::map<const Node*, std::string> python_name;  // forward-level names of all roots (planner-provided)
  std::vector<std::pair<const Node*, std::string>> used;  // root, pointer param, in first-use order
  std::string pointer(const Node* root);                   // registers on first use
};

// Whether the kernel rounds `n`'s value to its 16-bit type where it is made, as eager writes it (a 16-bit
// elementwise result or reduction, not a cast): ValueEmitter::rounded_like_eager.
bool rounds_like_eager(const Node* n);

class ValueEmitter {
 public:
  ValueEmitter(TileBuilder& b, const Schedule& s, const Group& g, KernelBuffers& buffers);

  // Pass 1: the per-kernel-dim strides of every memory access made while computing `n` under `map`.
  void collect(const Node* n, const std::vector<int>& map);
  void collect_store(const Node* n, const std::vector<int>& map);
  const std::vector<std::vector<int64_t>>& accesses() const { return accesses_; }
  const std::vector<char>& access_is_store() const { return is_store_; }  // per access: made by collect_store

  // Merges adjacent kernel dims; `can_merge(d)` says whether d and d+1 may share one run at all.
  void merge_dims(const std::function<bool(int)>& can_merge);
  const std::vector<int>& rep() const { return rep_; }
  // Kernel dims that keep their own index (a pad compares it with its range): collect() pins them.
  const std::vector<char>& pinned() const { return pinned_; }

  // Pass 2 (after the kind set index/axis/masks): emits statements computing `n` into `out`.
  const TExpr* value(const Node* n, const std::vector<int>& map);
  // `shift` elements past where `map` puts each element, only where `extra_mask` holds (a cat's piece: view.h).
  void store(const Node* n, const std::vector<int>& map, const TExpr* value, int64_t shift = 0,
             const TExpr* extra_mask = nullptr);
  // Whether `n` under `map` can take different values along any of the kernel dims `dims` (true when unsure).
  // A value that cannot is a smaller tile than the kernel's (a broadcast input, a 1-element row): a reduction
  // over those dims must broadcast it first.
  bool varies_along(const Node* n, const std::vector<int>& map, const std::vector<int>& dims) const;

  std::vector<TStmt>* out = nullptr;
  std::vector<const TExpr*> index;       // per kernel dim (representatives only)
  const TExpr* flat_index = nullptr;     // the flat offset over the whole space, where the kind has one
  std::vector<int> axis_of;              // per kernel dim: tile axis it varies along, -1 for scalar dims
  std::vector<const TExpr*> axis_mask;   // per tile axis (null: no mask needed)
  // Loads along kernel dim `dim` from an aligned start (peeled rows, lower_reduction.cpp): a load with unit stride
  // along it, no view offset, and other strides congruent to `residues` modulo `vec` elements reads at
  // tl.multiple_of(<its offset along the other dims, from the scalar `row` indices> + start, vec) + lanes, which
  // Triton loads as vectors. The kind guarantees that offset + start is a multiple of vec for such loads.
  struct AlignedRun {
    int dim = -1;
    const TExpr* start = nullptr;
    const TExpr* lanes = nullptr;
    int64_t vec = 1;
    std::vector<int64_t> residues;  // per kernel dim
    std::vector<const TExpr*> row;  // per kernel dim: the row's index as a scalar (the hinted start is scalar)
  };
  AlignedRun aligned;
  // A load that walks kernel dim `dim` alone (every other dim it walks is a scalar index of the program) is made
  // 1-D: its offset takes `index` (dim's index as a 1-D tile) and `mask`, and the loaded value is expanded by
  // `expand` (":, None") back to the kernel's tile. The kind sets it where a 2-D load of that shape would pick the
  // kernel's layout: Triton lays a [BLOCK_R, 1] load out along its contiguous dim, and that layout spread to the
  // tile it multiplies (lower_scan.cpp, column scans); a 1-D load's layout stops at its expand, converted there.
  struct Line {
    int dim = -1;
    const TExpr* index = nullptr;
    const TExpr* mask = nullptr;
    std::string expand;
  };
  Line line;
  // Reductions and scans are the kind's business: returns the value of a Reduce or Scan node.
  std::function<const TExpr*(const Node*)> on_reduce;
  // Likewise pooling: the window kind loads the input at window offsets and returns the pooled value.
  std::function<const TExpr*(const Node*)> on_window;
  // In kernels whose values are all tiles: an index tile that shapes the pointer of a 0-d store.
  const TExpr* store_anchor = nullptr;
  // Per tile axis (or null): an index tile that every store spans, with that axis's mask, even when the stored
  // tensor has size 1 along the axis (its dim maps to no kernel dim): attention's value tile has BLOCK_M rows
  // for a single query and BLOCK_EV columns for a value dim of 1.
  std::vector<const TExpr*> axis_anchor;
  // Picks: a sum over one kernel dim `dim` of where(iota == t, v, 0), with t constant along `dim` (cross entropy's
  // target logit and target weight), is v at index t: one load per row at t, where the compare, the select and the
  // sum took instructions on every element of the row. Exact: the sum adds zeros to the one element it keeps. A
  // t outside [0, size) reads nothing (masked) and picks 0, as the compare did (PyTorch raises there).
  struct Pick {
    const Node* value = nullptr;  // v, over the kernel's space
    const Node* at = nullptr;     // t
    int dim = -1;
    std::vector<int> value_map, at_map;  // how v and t are read
  };
  // Whether reduction `red` is such a pick whose v can be read at one index (pointwise over loads and values
  // constant along `dim`); `pick` receives its parts. The kind decides whether to use it (`picks`).
  bool match_pick(const Node* red, Pick& pick) const;
  std::map<const Node*, Pick> picks;  // reductions computed as picks (value() reads them at t)
  // Values of a loop body depend on the loop variable: the kind clears the cache around loops.
  void clear_cache() { cache_.clear(); }
  // The whole cache, to compute one tile's values in two phases (a scan's chunks: every chunk's loads, then each
  // chunk's scan and stores): what a phase computed stays valid while the statements stay in one scope.
  using Cache = std::map<std::string, const TExpr*>;
  Cache cache() const { return cache_; }
  void set_cache(Cache c) { cache_ = std::move(c); }
  void keep_in_cache(const Node* n, const std::vector<int>& map, const TExpr* value);

  // Mask of an access with these per-kernel-dim strides (over the tile axes it spans).
  const TExpr* mask_for(const std::vector<int64_t>& strides) const;
  std::string fresh(const std::string& stem);
  static std::string value_name(Op op);
  // After merge_dims: the size of the run whose representative is kernel dim `rep`.
  int64_t run_size(int rep) const;
  // Splits a flat index over representative dims (outer to inner) into `out`: d -> (flat // inner) % size,
  // setting index[d] and axis_of[d] = axis.
  void split_index(const TExpr* flat, const std::vector<int>& dims, int axis, const std::string& stem);

 private:
  std::vector<int64_t> access_strides(const Node* view, const std::vector<int>& map) const;
  const TExpr* offset(const std::vector<int64_t>& strides);
  bool aligned_load(const std::vector<int64_t>& strides, int64_t base) const;
  const TExpr* aligned_offset(const std::vector<int64_t>& strides);
  const TExpr* ptr_base(const Node* n);
  const TExpr* compute(const Node* n, const std::vector<int>& map);
  const TExpr* pointwise(const Node* n, std::vector<const TExpr*> a);
  const TExpr* gather(const Node* n, const std::vector<int>& map);
  // The dim map by which a gather reads its source along the dims other than the gathered one.
  static std::vector<int> gather_map(const Node* gather, const std::vector<int>& map);
  const TExpr* dim_index(int d);  // the index of kernel dim d alone (d may be merged into a longer run)
  bool in_group(const Node* n) const;
  // Is `n` (a value or a view of one) loaded from memory rather than computed in this kernel?
  bool reads_memory(const Node* n) const;
  const TExpr* rounded_like_eager(const Node* n, const TExpr* v);  // a 16-bit result rounded to its type
  std::string key(const Node* n, const std::vector<int>& map) const;
  std::vector<int> space_map() const;  // the kernel's space read as itself (unit dims -1)
  bool pickable(const Node* n, const std::vector<int>& map, int dim) const;
  void prepare_pick(const Node* n, const std::vector<int>& map, int dim);
  const TExpr* picked(const Pick& pick);
  const TExpr* value_at(const Node* n, const std::vector<int>& map, int dim, Cache& memo);

  TileBuilder& b_;
  const Schedule& s_;
  const Group& g_;
  KernelBuffers& buffers_;
  std::vector<std::vector<int64_t>> accesses_;
  std::vector<char> is_store_;
  std::vector<int> rep_;
  std::vector<char> pinned_;
  std::map<std::string, const TExpr*> cache_;
  std::map<std::string, int> names_;
  std::set<std::string> taken_;  // every name fresh() handed out
};

// True when a value of dtype `t` is held in float32 inside kernels (floats compute in float32).
bool computes_in_f32(DType t);

}  // namespace tz
