// One lowering per kernel kind (pointwise, reduction, matmul, conv, window, attention, scan), called by
// lower(). Internal to kernel/.
#pragma once

#include <string>

#include "kernel/tile.h"
#include "kernel/values.h"
#include "passes/schedule.h"

namespace tz {

struct KernelJob {
  const Schedule& schedule;
  const Group& group;
  TileArena& arena;
  KernelBuffers buffers;
  Kernel kernel;
  Launch launch;

  // A compile-time size: a tl.constexpr parameter bound at launch.
  const TExpr* constexpr_param(const std::string& name, int64_t value);
};

void lower_pointwise(KernelJob& job);
// Whole-space floating sums of a reduction kernel whose full-size values do not read them, over at least 65536
// elements: computed in the pointwise kernel's tile, one partial per program (lower_pointwise_total).
bool lowers_as_pointwise_total(const Group& g);
void lower_pointwise_total(KernelJob& job);
void lower_reduction(KernelJob& job);
// Reductions over two disjoint axis sets (Group::axes2) in one read of the space (lower_two_axes.cpp).
void lower_two_axes(KernelJob& job);
void lower_matmul(KernelJob& job);
void lower_conv(KernelJob& job);
void lower_window(KernelJob& job);
void lower_attention(KernelJob& job);
void lower_scan(KernelJob& job);

// Column reductions whose outputs are stored contiguously along another kept dim than the one their loads walk
// (lower_transposed_columns.cpp): a [BLOCK_T, BLOCK_I] block of that (t, c) plane per program, looped over the
// reduced rows. t < 0: the form does not apply.
struct TransposedColumns {
  int t = -1, c = -1;                 // representative dims: stored along t, loaded along c
  std::vector<int> reduced, others;   // the reduced runs; the other kept runs (scalar per program)
  int64_t r = 1, block_t = 1, block_i = 1, unroll = 1;
  int warps = 1;
};
// From the column form's classes of representative dims (kept outer, reduced, kept inner with the run that some
// load walks contiguously last) and whether each column is read once with no full-size output.
TransposedColumns plan_transposed_columns(const Group& g, const ValueEmitter& ve, const std::vector<int>& outer,
                                          const std::vector<int>& reduced, const std::vector<int>& inner,
                                          bool one_pass);
void lower_transposed_columns(KernelJob& job, ValueEmitter& ve, TileBuilder& b, const TransposedColumns& tc);

int64_t next_pow2(int64_t v);
// A reduction's lanes (lower_reduction.cpp): the neutral element of `op` over values of type `t`, the type its
// lanes accumulate in, and how a lane folds a value in (a floating max/min turns NaN at its first NaN and stays so).
const TExpr* neutral(TileBuilder& b, Op op, DType t);
DType acc_type(const Node* reduce_input);
TOp lane_combine(Op op, bool fp);
// "The last program finishes" (split rows, whole sums in a pointwise tile): once this program's partials are
// stored, a barrier releases every thread's stores and the program counts in on `counter` (acq_rel, into `seen`).
// Returns the If that the program counting in last (of `parts`) runs, begun with the comment `what`, the counter
// zeroed for the next call, and a barrier.
TStmt count_in(std::vector<TStmt>& body, TileBuilder& b, TileArena& arena, const TExpr* counter, const TExpr* parts,
               const std::string& what);
// The scratch of a kernel whose last program finishes: the parameters work_ptr (the partials; the caller's launch
// setup allocates `work`), index_ptr where `with_index` (`index`, allocated by the caller too) and count_ptr (the
// launcher's `counters` zeroed counters).
void partials_scratch(KernelJob& job, bool with_index, int64_t counters);
// A [BT, BI] tile over the runs t (axis 0) and i (axis 1), of st and si elements in tiles of bt and bi, placed by
// the program id `pid` (a variable): pid = (rest * nt + tile_t) * ni + tile_i, so neighbouring programs take
// neighbouring tiles along i. Emits rt and ri and sets ve's index, axis and mask of both runs; `rest`: whether
// other runs take the rest of the program id.
void place_tile_2d(std::vector<TStmt>& body, TileBuilder& b, ValueEmitter& ve, const TExpr* pid, int t, int i,
                   int64_t bt, int64_t bi, const TExpr* BT, const TExpr* BI, bool rest);
// The narrowest element (bytes) of the full-size tensors a group reads or writes (those its tile walks).
int64_t narrowest_element(const Group& g);
// The narrowest element (bytes) of the full-size tensors the group reads, also through the values it recomputes
// (narrowest_element skips the sources of inlined nodes: a 16-bit input cast to fp32 for its sum); 8 when none.
int64_t narrowest_load(const Group& g);
// Per-dim strides of an operand (a strided view of a tensor in memory), aligned right to `rank` dims; size-1 and
// missing dims read with stride 0.
std::vector<int64_t> operand_strides(const Node* operand, size_t rank);
// `ptr` moved to an operand's first element: a slice or flip of a tensor in memory starts at an element offset.
const TExpr* operand_base(TileBuilder& b, const std::string& ptr, const Node* operand);
// The dim map of `n` in its group (identity on the space; kept dims for reduced values).
std::vector<int> group_map(const Group& g, const Node* n);
// The batch dims of a matmul or attention kernel (all but the last two of `space`), enumerated by grid axis 1:
// assigns `bidx` and the index b<d> of each batch dim longer than 1 (also ve.index[d]), and adds each operand's
// offset along them to its base: bases[k] += b<d> * (*strides[k])[d] (null bases are left alone). Nothing when
// the batch is 1. Returns the batch (the grid's axis 1).
int64_t batch_offsets(TileBuilder& b, std::vector<TStmt>& body, ValueEmitter& ve, const Shape& space,
                   const std::vector<const std::vector<int64_t>*>& strides, std::vector<const TExpr*>& bases);

}  // namespace tz
