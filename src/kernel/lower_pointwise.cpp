// Pointwise kernels: one 1-D tile of BLOCK elements over the (merged) iteration space; each merged dim's
// index is recovered from the flat offset by a division and a modulo, which vanish when the space merges
// into a single run (the common contiguous case).
//
// A transposing kernel (an access contiguous along another run than the innermost one, along which the output
// is written: a permuted copy, a channels-last relayout) gets a 2-D tile instead, [BLOCK_T, BLOCK_I] over that
// run and the innermost one, so that both its loads and its stores are coalesced (Triton converts between the
// two layouts through shared memory); a 1-D tile would walk one side with a stride.
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
void lower_transposed(KernelJob& job, ValueEmitter& ve, TileBuilder& b, int t, int inner) {
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
  // The tile's place along each run: pid = (rest * nt + tile_t) * ni + tile_i.
  const TExpr* tile_t = ni == 1 ? pid : b.op(TOp::FloorDiv, {pid, b.i(ni)});
  if (rest > 1) tile_t = b.op(TOp::Mod, {tile_t, b.i(nt)});
  const TExpr* ti = nt == 1 ? b.arange(BT) : b.add(b.mul(tile_t, BT), b.arange(BT));
  const TExpr* ii = ni == 1 ? b.arange(BI) : b.add(b.mul(b.op(TOp::Mod, {pid, b.i(ni)}), BI), b.arange(BI));
  body.push_back(TileBuilder::assign("rt", b.expand(ti, ":, None")));
  body.push_back(TileBuilder::assign("ri", b.expand(ii, "None, :")));
  const TExpr* rt = b.var("rt");
  const TExpr* ri = b.var("ri");
  ve.index[t] = rt;
  ve.axis_of[t] = 0;
  ve.index[inner] = ri;
  ve.axis_of[inner] = 1;
  ve.axis_mask = {st % bt ? b.lt(rt, b.i(st)) : nullptr, si % bi ? b.lt(ri, b.i(si)) : nullptr};
  std::vector<int> others;
  for (int d = 0; d < static_cast<int>(g.space.size()); ++d) {
    if (ve.rep()[d] == d && d != t && d != inner) others.push_back(d);
  }
  if (!others.empty()) {
    body.push_back(TileBuilder::assign("rest", b.op(TOp::FloorDiv, {pid, b.i(nt * ni)})));
    ve.split_index(b.var("rest"), others, -1, "i");
  }
  ve.store_anchor = b.add(rt, ri);
  for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
  job.launch.grid = {std::to_string(nt * ni * rest)};
  job.launch.num_warps = bt * bi >= 4096 ? 8 : 4;
}

}  // namespace

void lower_pointwise(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
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
    lower_transposed(job, ve, b, t, innermost);
    return;
  }

  int64_t n = numel(g.space);
  int64_t block = std::min<int64_t>(1024, std::max<int64_t>(16, next_pow2(n)));
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
  for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));

  job.launch.grid = {std::to_string((n + block - 1) / block)};
  job.launch.num_warps = block >= 1024 ? 4 : (block >= 256 ? 2 : 1);
}

}  // namespace tz
