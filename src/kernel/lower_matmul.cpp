// Matmul kernels: one BLOCK_M x BLOCK_N output tile per program, programs ordered in groups of GROUP_M rows
// for L2 reuse, a K loop of tl.dot with a float32 accumulator, and the fused epilogue computed on the
// accumulator before the single store. Batch dims (broadcast ones read with stride 0) run on grid axis 1.
// fp32 operands use the precision PyTorch's matmul flag implies (passed in as PRECISION); fp16/bf16 operands
// feed the tensor cores directly.
#include "graph/view.h"
#include "kernel/lower_kinds.h"
#include "kernel/matmul_tiles.h"
#include "passes/split_k.h"

namespace tz {

void lower_matmul(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const Node* mm = g.nodes.front();
  TZ_ASSERT(mm->op == Op::Matmul, "matmul kernel without a matmul first");
  const Node* a = mm->src[0];
  const Node* bm = mm->src[1];
  int rank = static_cast<int>(g.space.size());
  int64_t m = g.space[rank - 2], n = g.space[rank - 1], k = a->shape.back();
  bool half = mm->dtype == DType::Float16 || mm->dtype == DType::BFloat16;

  std::vector<int64_t> sa = operand_strides(a, rank), sb = operand_strides(bm, rank);
  int64_t sam = sa[rank - 2], sak = sa[rank - 1], sbk = sb[rank - 2], sbn = sb[rank - 1];
  // Tiles, warps and stages (kernel/matmul_tiles.h, shared with split_k, which counts the tiles).
  const MatmulTiles tiles = matmul_tiles(m, n, k, mm->dtype, mm->attr.str == kSplitKAttr && sbk == 1);
  const int64_t block_m = tiles.block_m, block_n = tiles.block_n, block_k = tiles.block_k;
  auto& body = job.kernel.body;
  ve.out = &body;

  std::string a_ptr = job.buffers.pointer(view_root(a));
  std::string b_ptr = job.buffers.pointer(view_root(bm));
  const TExpr* M = job.constexpr_param("M", m);
  const TExpr* N = job.constexpr_param("N", n);
  const TExpr* K = job.constexpr_param("K", k);
  const TExpr* BM = job.constexpr_param("BLOCK_M", block_m);
  const TExpr* BN = job.constexpr_param("BLOCK_N", block_n);
  const TExpr* BK = job.constexpr_param("BLOCK_K", block_k);
  const TExpr* GM = job.constexpr_param("GROUP_M", 8);
  job.kernel.params.push_back({"PRECISION", ParamKind::Constexpr});
  job.launch.args.push_back({"PRECISION", half ? "\"ieee\"" : "precision"});

  // Grouped program order: GROUP_M row-blocks share each column block while it is in L2.
  int64_t pid_m_count = (m + block_m - 1) / block_m, pid_n_count = (n + block_n - 1) / block_n;
  body.push_back(TileBuilder::assign("pid", b.program_id(0)));
  const TExpr* pid = b.var("pid");
  body.push_back(TileBuilder::assign("in_group", b.mul(GM, b.i(pid_n_count))));
  body.push_back(TileBuilder::assign("first_m", b.mul(b.op(TOp::FloorDiv, {pid, b.var("in_group")}), GM)));
  body.push_back(TileBuilder::assign(
      "group_rows", b.op(TOp::Min2, {b.op(TOp::Sub, {b.i(pid_m_count), b.var("first_m")}), GM})));
  body.push_back(TileBuilder::assign(
      "pid_m", b.add(b.var("first_m"), b.op(TOp::Mod, {b.op(TOp::Mod, {pid, b.var("in_group")}), b.var("group_rows")}))));
  body.push_back(TileBuilder::assign(
      "pid_n", b.op(TOp::FloorDiv, {b.op(TOp::Mod, {pid, b.var("in_group")}), b.var("group_rows")})));
  // Row and column indices wrap around instead of masking the operand loads; the store is masked.
  body.push_back(TileBuilder::assign("rm", b.add(b.mul(b.var("pid_m"), BM), b.arange(BM))));
  body.push_back(TileBuilder::assign("rn", b.add(b.mul(b.var("pid_n"), BN), b.arange(BN))));
  const TExpr* rm = b.var("rm");
  const TExpr* rn = b.var("rn");
  body.push_back(TileBuilder::assign("rk", b.arange(BK)));
  const TExpr* rk = b.var("rk");

  // Batch offsets: grid axis 1 enumerates the output's batch dims.
  std::vector<const TExpr*> bases = {operand_base(b, a_ptr, a), operand_base(b, b_ptr, bm)};
  int64_t batch = batch_offsets(b, body, ve, g.space, {&sa, &sb}, bases);
  const TExpr* a_base = bases[0];
  const TExpr* b_base = bases[1];
  auto scaled = [&](const TExpr* idx, int64_t stride) { return stride == 1 ? idx : b.mul(idx, b.i(stride)); };
  const TExpr* rm_wrapped = b.op(TOp::Mod, {rm, M});
  const TExpr* rn_wrapped = b.op(TOp::Mod, {rn, N});
  body.push_back(TileBuilder::assign(
      "a_ptrs", b.add(b.add(a_base, scaled(b.expand(rm_wrapped, ":, None"), sam)), scaled(b.expand(rk, "None, :"), sak))));
  body.push_back(TileBuilder::assign(
      "b_ptrs", b.add(b.add(b_base, scaled(b.expand(rk, ":, None"), sbk)), scaled(b.expand(rn_wrapped, "None, :"), sbn))));
  body.push_back(TileBuilder::assign("acc", b.zeros("[BLOCK_M, BLOCK_N]", DType::Float32)));

  TStmt loop{TStmtKind::For};
  loop.var = "k0";
  loop.start = b.i(0);
  loop.stop = K;
  loop.step = BK;
  const TExpr* a_mask = nullptr;
  const TExpr* b_mask = nullptr;
  const TExpr* zero = nullptr;
  if (k % block_k != 0) {
    const TExpr* k_left = b.op(TOp::Sub, {K, b.var("k0")});
    a_mask = b.lt(b.expand(rk, "None, :"), k_left);
    b_mask = b.lt(b.expand(rk, ":, None"), k_left);
    zero = b.f(0.0);
  }
  loop.body.push_back(TileBuilder::assign("a", b.load(b.var("a_ptrs"), a_mask, zero)));
  loop.body.push_back(TileBuilder::assign("b", b.load(b.var("b_ptrs"), b_mask, zero)));
  loop.body.push_back(TileBuilder::assign(
      "acc", b.op(TOp::Dot, {b.var("a"), b.var("b"), b.var("acc"), b.var("PRECISION")})));
  loop.body.push_back(TileBuilder::assign("a_ptrs", b.add(b.var("a_ptrs"), scaled(BK, sak))));
  loop.body.push_back(TileBuilder::assign("b_ptrs", b.add(b.var("b_ptrs"), scaled(BK, sbk))));
  // tril(A @ B) / triu(A @ B) as the kernel's only output: a tile wholly outside the band skips its K loop
  // (its accumulator stays 0 and the masked store writes zeros).
  const Node* tri = g.outputs.size() == 1 && g.outputs[0]->op == Op::Tri && g.outputs[0]->src[0] == mm
                        ? g.outputs[0]
                        : nullptr;
  if (tri) {
    const TExpr* diag = b.i(tri->attr.ints[0]);
    const TExpr* first_col = b.mul(b.var("pid_n"), BN);
    const TExpr* first_row = b.mul(b.var("pid_m"), BM);
    const TExpr* outside =
        tri->attr.ints[1]
            ? b.lt(b.op(TOp::Sub, {b.add(first_col, b.op(TOp::Sub, {BN, b.i(1)})), first_row}), diag)
            : b.op(TOp::Gt, {b.op(TOp::Sub, {first_col, b.add(first_row, b.op(TOp::Sub, {BM, b.i(1)}))}), diag});
    body.push_back(TileBuilder::assign("k_stop", b.op(TOp::Where, {outside, b.i(0), K})));
    loop.stop = b.var("k_stop");
  }
  body.push_back(std::move(loop));

  // Epilogue over the accumulator tile.
  ve.merge_dims([](int) { return false; });
  ve.index[rank - 2] = b.expand(rm, ":, None");
  ve.index[rank - 1] = b.expand(rn, "None, :");
  ve.axis_of[rank - 2] = 0;
  ve.axis_of[rank - 1] = 1;
  ve.axis_mask = {m % block_m == 0 ? nullptr : b.lt(b.expand(rm, ":, None"), M),
                  n % block_n == 0 ? nullptr : b.lt(b.expand(rn, "None, :"), N)};
  ve.keep_in_cache(mm, group_map(g, mm), b.var("acc"));  // size-1 dims map to -1, as consumers read it
  for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));

  job.launch.grid = {std::to_string(pid_m_count * pid_n_count)};
  if (batch > 1) job.launch.grid.push_back(std::to_string(batch));
  job.launch.num_warps = tiles.num_warps;
  job.launch.num_stages = tiles.num_stages;
}

}  // namespace tz
