// Pointwise kernels: one 1-D tile of BLOCK elements over the (merged) iteration space; each merged dim's
// index is recovered from the flat offset by a division and a modulo, which vanish when the space merges
// into a single run (the common contiguous case).
//
// A transposing kernel (an access contiguous along another run than the innermost one, along which the output
// is written: a permuted copy, a channels-last relayout) gets a 2-D tile instead, [BLOCK_T, BLOCK_I] over that
// run and the innermost one, so that both its loads and its stores are coalesced (Triton converts between the
// two layouts through shared memory); a 1-D tile would walk one side with a stride.
#include <algorithm>
#include <map>
#include <string>

#include "graph/view.h"
#include "kernel/lower_kinds.h"

namespace tz {

namespace {

// The run (by representative dim) along which some access is contiguous while it is not contiguous along the
// innermost run `inner`; -1 when there is none or the runs are too short to tile.
int transposed_run(const ValueEmitter& ve, int inner) {
  if (inner < 0 || ve.run_size(inner) < 16) return -1;
  for (const auto& strides : ve.accesses()) {
    if (strides[static_cast<size_t>(inner)] <= 1) continue;  // contiguous, or broadcast, along the innermost run
    for (int d = inner - 1; d >= 0; --d) {
      if (ve.rep()[d] == d && strides[static_cast<size_t>(d)] == 1 && ve.run_size(d) >= 16) return d;
    }
  }
  return -1;
}

// The 2-D tile of a transposing kernel: axis 0 walks run `t`, axis 1 the innermost run `inner`; the other runs
// are split from the rest of the program id.
void tile_transposed(KernelJob& job, ValueEmitter& ve, TileBuilder& b, int t, int inner) {
  const Group& g = job.group;
  auto& body = job.kernel.body;
  ve.out = &body;
  int64_t st = ve.run_size(t), si = ve.run_size(inner);
  int64_t bt = std::min<int64_t>(64, next_pow2(st)), bi = std::min<int64_t>(64, next_pow2(si));
  int64_t nt = (st + bt - 1) / bt, ni = (si + bi - 1) / bi, rest = numel(g.space) / (st * si);
  const TExpr* BT = job.constexpr_param("BLOCK_T", bt);
  const TExpr* BI = job.constexpr_param("BLOCK_I", bi);
  const TExpr* pid = b.program_id(0);
  if (numel(g.space) >= (int64_t{1} << 31)) pid = b.cast(pid, DType::Int64);  // offsets past int32
  body.push_back(TileBuilder::assign("pid", pid));
  pid = b.var("pid");
  place_tile_2d(body, b, ve, pid, t, inner, bt, bi, BT, BI, rest > 1);
  std::vector<int> others;
  for (int d = 0; d < static_cast<int>(g.space.size()); ++d) {
    if (ve.rep()[d] == d && d != t && d != inner) others.push_back(d);
  }
  if (!others.empty()) {
    body.push_back(TileBuilder::assign("rest", b.op(TOp::FloorDiv, {pid, b.i(nt * ni)})));
    ve.split_index(b.var("rest"), others, -1, "i");
  }
  ve.store_anchor = b.add(b.var("rt"), b.var("ri"));
  job.launch.grid = {std::to_string(nt * ni * rest)};
  job.launch.num_warps = bt * bi >= 4096 ? 8 : 4;
}

// The 1-D tile of BLOCK elements over the flat space.
void tile_flat(KernelJob& job, ValueEmitter& ve, TileBuilder& b, int64_t block) {
  const Group& g = job.group;
  int64_t n = numel(g.space);
  auto& body = job.kernel.body;
  const TExpr* n_param = job.constexpr_param("N", n);
  const TExpr* block_param = job.constexpr_param("BLOCK", block);
  const TExpr* pid = b.program_id(0);
  if (n >= (int64_t{1} << 31) - block) pid = b.cast(pid, DType::Int64);  // offsets past int32
  body.push_back(TileBuilder::assign("offs", b.add(b.mul(pid, block_param), b.arange(block_param))));
  const TExpr* offs = b.var("offs");
  ve.axis_mask = {n % block == 0 ? nullptr : b.lt(offs, n_param)};
  ve.flat_index = offs;

  // Index of each representative dim: (offs // inner) % size, with inner the product of the inner reps.
  int64_t inner = 1;
  int outermost = -1;
  for (int d = 0; d < static_cast<int>(g.space.size()); ++d) {
    if (ve.rep()[d] == d && outermost < 0) outermost = d;
  }
  for (int d = static_cast<int>(g.space.size()) - 1; d >= 0; --d) {
    if (ve.rep()[d] != d) continue;
    int64_t size = 1;  // the whole merged run of d
    for (int u = 0; u <= d; ++u) {
      if (ve.rep()[u] == d) size *= g.space[u];
    }
    const TExpr* idx = offs;
    if (inner != 1) idx = b.op(TOp::FloorDiv, {idx, b.i(inner)});
    if (d != outermost) idx = b.op(TOp::Mod, {idx, b.i(size)});
    if (idx != offs) {
      std::string name = "i" + std::to_string(d);
      body.push_back(TileBuilder::assign(name, idx));
      idx = b.var(name);
    }
    ve.index[d] = idx;
    ve.axis_of[d] = 0;
    inner *= size;
  }
  ve.out = &body;
  job.launch.grid = {std::to_string((n + block - 1) / block)};
  job.launch.num_warps = block >= 1024 ? 4 : (block >= 256 ? 2 : 1);
}

// The tile of a pointwise kernel over the group's space, as the module comment says; returns the number of
// its axes (1 flat, 2 transposing). `flat_block` is the flat tile's size (0: the usual rule).
int tile_space(KernelJob& job, ValueEmitter& ve, TileBuilder& b, int64_t flat_block = 0) {
  const Group& g = job.group;
  for (auto* o : g.outputs) {
    ve.collect(o, group_map(g, o));
    ve.collect_store(o, group_map(g, o));
  }
  ve.merge_dims([](int) { return true; });
  int innermost = -1;
  for (int d = 0; d < static_cast<int>(g.space.size()); ++d) {
    if (ve.rep()[d] == d) innermost = d;
  }
  if (int t = transposed_run(ve, innermost); t >= 0) {
    tile_transposed(job, ve, b, t, innermost);
    return 2;
  }
  int64_t n = numel(g.space);
  tile_flat(job, ve, b, flat_block ? flat_block : std::min<int64_t>(1024, std::max<int64_t>(16, next_pow2(n))));
  return 1;
}

// A flat whole-space sum takes tiles of this many elements on kTotalWarps warps (16 fp32 a thread, four 16-byte
// loads of each input in flight), so that a 536M-element loss counts in 131072 programs rather than 524288.
// Not measured against 1024 yet: tests/gpu/total_experiment.py.
const int64_t kTotalBlock = 4096;
const int kTotalWarps = 8;
// The last program sums the partials in chunks of this many (lanes each adding PARTS / kTotalChunk of them).
const int64_t kTotalChunk = 1024;

}  // namespace

void place_tile_2d(std::vector<TStmt>& body, TileBuilder& b, ValueEmitter& ve, const TExpr* pid, int t, int i,
                   int64_t bt, int64_t bi, const TExpr* BT, const TExpr* BI, bool rest) {
  const int64_t st = ve.run_size(t), si = ve.run_size(i);
  const int64_t nt = (st + bt - 1) / bt, ni = (si + bi - 1) / bi;
  const TExpr* tile_t = ni == 1 ? pid : b.op(TOp::FloorDiv, {pid, b.i(ni)});
  if (rest) tile_t = b.op(TOp::Mod, {tile_t, b.i(nt)});
  const TExpr* ti = nt == 1 ? b.arange(BT) : b.add(b.mul(tile_t, BT), b.arange(BT));
  const TExpr* ii = ni == 1 ? b.arange(BI) : b.add(b.mul(b.op(TOp::Mod, {pid, b.i(ni)}), BI), b.arange(BI));
  body.push_back(TileBuilder::assign("rt", b.expand(ti, ":, None")));
  body.push_back(TileBuilder::assign("ri", b.expand(ii, "None, :")));
  const TExpr* rt = b.var("rt");
  const TExpr* ri = b.var("ri");
  ve.index[t] = rt;
  ve.axis_of[t] = 0;
  ve.index[i] = ri;
  ve.axis_of[i] = 1;
  ve.axis_mask = {st % bt ? b.lt(rt, b.i(st)) : nullptr, si % bi ? b.lt(ri, b.i(si)) : nullptr};
}

void lower_pointwise(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  tile_space(job, ve, b);
  for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
}

bool lowers_as_pointwise_total(const Group& g) {
  if (g.kind != GroupKind::Reduction || !g.axes2.empty() || numel(g.space) < (int64_t{1} << 16)) return false;
  for (int d = 0; d < static_cast<int>(g.space.size()); ++d) {
    bool reduced = std::find(g.axes.begin(), g.axes.end(), d) != g.axes.end();
    if (!reduced && g.space[d] != 1) return false;
  }
  const int64_t full = numel(g.space);
  bool any = false;
  for (const Node* n : g.nodes) {
    if (op_kind(n->op) == OpKind::Reduce) {
      if (n->op != Op::Sum || !is_floating(n->src[0]->dtype) || n->attr.ints != g.axes) return false;
      any = true;
      continue;
    }
    if (!is_pointwise(n->op) && op_kind(n->op) != OpKind::View) return false;
    // a full-size value computed from a total would need the total before the tile is stored
    if (numel(n->shape) != full) continue;
    for (const Node* src : n->src) {
      const Node* root = view_root(src);
      if (std::find(g.nodes.begin(), g.nodes.end(), root) != g.nodes.end() && numel(root->shape) != full) return false;
    }
  }
  return any;
}

// Whole-space sums in a pointwise kernel's tile ("the last program finishes"): every program stores its tile's
// full-size outputs and the sum of its tile of each reduced value (a partial per program), counts in on the
// kernel's counter (acq_rel) and goes; the program that counts in last sums the partials in index order, computes
// the values of the reduced shape (a mean's scale, a cast) and stores them, and zeroes the counter for the next
// call (ModelNew holds it). The inputs are read once, in the tile that reads them best: a transposed operand
// through the transposing 2-D tile, which a reduction's rows would read across memory. Before, a whole sum was
// split into parts of the tensor reshaped flat (split_reduce), so a transposed operand was first copied
// contiguous, and a 'none' loss written beside its sum was computed twice: mse(reduction='none') and its sum over
// bf16 [32, 4095, 4096] with transposed targets read 7 bytes per 3 needed (0.39 of the floor on the H200).
void lower_pointwise_total(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const int axes = tile_space(job, ve, b, kTotalBlock);
  if (axes == 1) job.launch.num_warps = kTotalWarps;
  auto& body = job.kernel.body;
  const int64_t programs = std::stoll(job.launch.grid[0]);
  std::vector<const Node*> reductions;
  for (auto* n : g.nodes) {
    if (op_kind(n->op) == OpKind::Reduce) reductions.push_back(n);
  }
  for (auto* o : g.outputs) {
    if (numel(o->shape) == numel(g.space)) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
  }
  const int64_t slots = static_cast<int64_t>(reductions.size());
  partials_scratch(job, false, 1);
  job.launch.setup.push_back("work = torch.empty((" + std::to_string(programs * slots) +
                             ",), device={device}, dtype=torch.float32)");
  const TExpr* parts = job.constexpr_param("PARTS", programs);
  const int64_t part_block = std::min(kTotalChunk, next_pow2(programs));
  const TExpr* chunk = job.constexpr_param("PART_BLOCK", part_block);
  // A [1] or [1, 1] index: the partial (a keep_dims sum) is stored through a pointer of its shape.
  const TExpr* one = axes == 1 ? b.arange(b.i(1)) : b.expand(b.arange(b.i(1)), ":, None");
  const TExpr* pid = b.program_id(0);
  const TExpr* mask = axes == 1 ? ve.axis_mask[0] : b.band(ve.axis_mask[0], ve.axis_mask[1]);
  const std::vector<int> all_dims = [&] {
    std::vector<int> d;
    for (int k = 0; k < static_cast<int>(g.space.size()); ++k) d.push_back(k);
    return d;
  }();
  body.push_back(TileBuilder::comment("this tile's partial sums, then count in on the kernel's counter"));
  for (int64_t k = 0; k < slots; ++k) {
    const Node* red = reductions[k];
    const std::vector<int> map = group_map(g, red->src[0]);
    const TExpr* v = ve.value(red->src[0], map);
    if (!ve.varies_along(red->src[0], map, all_dims)) {
      v = b.call("tl.broadcast_to", {v, b.var(axes == 1 ? "[BLOCK]" : "[BLOCK_T, BLOCK_I]")});
    }
    if (mask) v = b.op(TOp::Where, {mask, v, b.f(0.0)});
    const TExpr* partial = b.reduce(TOp::Sum, v, axes - 1);
    if (axes == 2) partial = b.reduce(TOp::Sum, partial, 0);
    const TExpr* at = slots > 1 ? b.mul(pid, b.i(slots)) : pid;
    if (k > 0) at = b.add(at, b.i(k));
    body.push_back(TileBuilder::store(b.add(b.var("work_ptr"), b.add(at, one)), partial, nullptr));
  }
  TStmt finish = count_in(body, b, job.arena, b.var("count_ptr"), parts,
                          "the last program: sum the partials in index order; zero the counter for the next call");
  std::map<const Node*, const TExpr*> totals;
  for (int64_t k = 0; k < slots; ++k) {
    std::string acc = ve.fresh("acc");
    finish.body.push_back(TileBuilder::assign(acc, b.zeros("[PART_BLOCK]", DType::Float32)));
    TStmt loop{TStmtKind::For};
    loop.var = "p0";
    loop.start = b.i(0);
    loop.stop = parts;
    loop.step = chunk;
    loop.body.push_back(TileBuilder::assign("part_index", b.add(b.var("p0"), b.arange(chunk))));
    const TExpr* index = b.var("part_index");
    TExpr load{TOp::Load, "volatile"};
    const TExpr* at = slots > 1 ? b.mul(index, b.i(slots)) : index;
    if (k > 0) at = b.add(at, b.i(k));
    load.args = {b.add(b.var("work_ptr"), at)};
    if (programs % part_block != 0) {
      load.args.insert(load.args.end(), {b.lt(index, parts), b.f(0.0)});
    }
    loop.body.push_back(TileBuilder::assign(acc, b.add(b.var(acc), job.arena.make(load))));
    finish.body.push_back(std::move(loop));
    std::string name = ve.fresh(ValueEmitter::value_name(Op::Sum));
    finish.body.push_back(TileBuilder::assign(name, b.reduce(TOp::Sum, b.var(acc), 0)));
    totals[reductions[k]] = b.var(name);
  }
  // The values of the reduced shape, from the totals ([1] tiles), stored once.
  ve.out = &finish.body;
  ve.clear_cache();
  ve.on_reduce = [&](const Node* red) { return totals.at(red); };
  for (auto& m : ve.axis_mask) m = nullptr;
  ve.store_anchor = b.arange(b.i(1));
  for (auto* o : g.outputs) {
    if (numel(o->shape) != numel(g.space)) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
  }
  body.push_back(std::move(finish));
}

}  // namespace tz
