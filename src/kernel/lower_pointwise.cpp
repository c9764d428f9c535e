// Pointwise kernels: one 1-D tile of BLOCK elements over the (merged) iteration space; each merged dim's
// index is recovered from the flat offset by a division and a modulo, which vanish when the space merges
// into a single run (the common contiguous case).
#include "kernel/lower_kinds.h"

namespace tz {

void lower_pointwise(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  for (auto* o : g.outputs) {
    ve.collect(o, group_map(g, o));
    ve.collect_store(o, group_map(g, o));
  }
  ve.merge_dims([](int) { return true; });

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
