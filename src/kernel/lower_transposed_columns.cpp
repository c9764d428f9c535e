// Transposed columns: a reduction over outer dims (columns) whose loads run along one kept dim `c` while its
// outputs are stored contiguously along another kept dim `t` (y.mean(dim=0) of y = x.transpose(1, 2): x's last
// dim is the output's first). The column form's [BLOCK_R, BLOCK_I] tile walks the flat kept columns along c, so
// its store steps by the output's stride along c and every stored element is its own 32-byte sector. Here a
// program owns a [BLOCK_T, BLOCK_I] block of the (t, c) plane instead (c across the lanes for the loads), adds
// the reduced rows into it one row at a time (each lane owns its outputs: no reduction across lanes), and
// stores the block through t; Triton converts the layout through shared memory between the two, as in a
// transposing pointwise kernel (lower_pointwise.cpp).
//
// Measured on the H200 (tests/gpu/colstore_experiment.py and its first drafts, 2026-12-04, kernel time, L2 flushed;
// x.transpose(1, 2).mean(dim=0) of x [63, 4096, 4095], floor 0.497 ms in fp16, 0.994 ms in fp32): the column form
// [64, 64] on one warp 4.62 ms in fp16 (0.11 of the floor; eager 9.3 ms), 4.58 ms in fp32 (0.22; eager 8.3 ms).
// This form, [BLOCK_T, BLOCK_I] on warps, the row loop unrolled U times:
//   fp16: [32, 64] w2 U=1 0.743 ms, U=2 0.639 (0.78), U=4 0.646; [16, 128] w2 U=2 0.718, U=4 0.628; [64, 64] w4
//         U=1 0.751; [16, 64] w1 U=2 0.619; 256 loaded elements a thread ([64, 64] w2 U=4, [32, 64] w2 U=8) fell
//         off a cliff (1.2-1.5 ms), and so did [BLOCK_R, BLOCK_T, BLOCK_I] chunks of rows (1.1-1.7 ms);
//   fp32: [32, 64] w2 U=1 1.028 ms (0.97), U=2 1.109, U=4 1.086; [64, 64] w4 U=1 1.039; [16, 128] w2 U=4 1.061.
// So [32, 64] on 2 warps (32 elements a thread), unrolled for about 128 bytes of loads in flight a thread.
#include <algorithm>

#include "kernel/lower_kinds.h"

namespace tz {

namespace {

// The tile: kTileElems elements on 2 warps, rows of kTileWidth elements of c, and the row loop unrolled so that
// each thread has about kLoadBytesInFlight of loads in flight (measurements above).
const int64_t kTileElems = 2048;
const int64_t kTileWidth = 64;
const int64_t kLoadBytesInFlight = 128;
// A lane adds its R rows serially in float32. Over 256 randn rows the serial sum was at most 4.6e-5 from the
// exact one (1e5 columns, on the CPU; PyTorch's own sum 1.4e-5), within the 1e-4 tolerance; over 1024 rows 1.6e-4,
// and 4096 rows failed it. Longer columns keep the column form (whose lanes sum at most kPlainChunks chunks
// serially, compensated beyond).
const int64_t kMaxRows = 256;

bool combines_per_lane(Op op) { return op == Op::Sum || op == Op::Prod || op == Op::Max || op == Op::Min; }

}  // namespace

TransposedColumns plan_transposed_columns(const Group& g, const ValueEmitter& ve, const std::vector<int>& outer,
                                          const std::vector<int>& reduced, const std::vector<int>& inner,
                                          bool one_pass) {
  TransposedColumns tc;
  if (inner.size() < 2 || reduced.empty() || !one_pass) return tc;
  int64_t r = 1;
  for (int d : reduced) r *= ve.run_size(d);
  if (r > kMaxRows) return tc;
  for (const Node* n : g.nodes) {
    if (op_kind(n->op) == OpKind::Reduce && !combines_per_lane(n->op)) return tc;
  }
  const auto& acc = ve.accesses();
  const auto& store = ve.access_is_store();
  auto is_store = [&](size_t k) { return k < store.size() && store[k]; };
  // c: the innermost kept run (the column form puts a run that some load walks contiguously there), which no
  // output is stored along contiguously
  const int c = inner.back();
  bool any_store = false;
  for (size_t k = 0; k < acc.size(); ++k) {
    if (!is_store(k)) continue;
    any_store = true;
    if (std::abs(acc[k][static_cast<size_t>(c)]) == 1) return tc;
  }
  if (!any_store || ve.run_size(c) < 16) return tc;
  // t: a kept run along which some output is stored contiguously
  for (int d : inner) {
    if (d == c || ve.run_size(d) < 16) continue;
    for (size_t k = 0; k < acc.size(); ++k) {
      if (is_store(k) && std::abs(acc[k][static_cast<size_t>(d)]) == 1) tc.t = d;
    }
  }
  if (tc.t < 0) return tc;
  // and a load that walks c contiguously over the whole (t, c) block (not a vector broadcast along t)
  bool load_along_c = false;
  for (size_t k = 0; k < acc.size(); ++k) {
    load_along_c = load_along_c || (!is_store(k) && std::abs(acc[k][static_cast<size_t>(c)]) == 1 &&
                                    acc[k][static_cast<size_t>(tc.t)] != 0);
  }
  if (!load_along_c) {
    tc.t = -1;
    return tc;
  }
  tc.c = c;
  tc.reduced = reduced;
  tc.r = r;
  for (int d : outer) tc.others.push_back(d);
  for (int d : inner) {
    if (d != c && d != tc.t) tc.others.push_back(d);
  }
  std::sort(tc.others.begin(), tc.others.end());
  const int64_t elem = narrowest_load(g);
  tc.block_i = std::min(next_pow2(ve.run_size(c)), kTileWidth);
  tc.block_t = std::min(next_pow2(ve.run_size(tc.t)), kTileElems / tc.block_i);
  tc.warps = static_cast<int>(std::clamp<int64_t>(tc.block_t * tc.block_i / 1024, 1, 2));
  int64_t per_thread = tc.block_t * tc.block_i / (32 * tc.warps);
  tc.unroll = std::clamp<int64_t>(kLoadBytesInFlight / (per_thread * elem), 1, 4);
  tc.unroll = std::min(tc.unroll, r);
  return tc;
}

void lower_transposed_columns(KernelJob& job, ValueEmitter& ve, TileBuilder& b, const TransposedColumns& tc) {
  const Group& g = job.group;
  auto& body = job.kernel.body;
  ve.out = &body;
  const int t = tc.t, c = tc.c;
  const int64_t st = ve.run_size(t), si = ve.run_size(c), bt = tc.block_t, bi = tc.block_i;
  const int64_t nt = (st + bt - 1) / bt, ni = (si + bi - 1) / bi, rest = numel(g.space) / (st * si * tc.r);
  const bool wide = numel(g.space) >= (int64_t{1} << 31);  // offsets past int32
  const TExpr* R = job.constexpr_param("R", tc.r);
  const TExpr* BT = job.constexpr_param("BLOCK_T", bt);
  const TExpr* BI = job.constexpr_param("BLOCK_I", bi);
  const TExpr* pid = b.program_id(0);
  if (wide) pid = b.cast(pid, DType::Int64);
  body.push_back(TileBuilder::assign("pid", pid));
  pid = b.var("pid");
  place_tile_2d(body, b, ve, pid, t, c, bt, bi, BT, BI, rest > 1);  // (neighbouring programs: neighbouring runs of c)
  if (!tc.others.empty()) {
    body.push_back(TileBuilder::assign("rest", b.op(TOp::FloorDiv, {pid, b.i(nt * ni)})));
    ve.split_index(b.var("rest"), tc.others, -1, "i");
  }
  ve.store_anchor = b.add(b.var("rt"), b.var("ri"));

  std::vector<const Node*> reductions;
  for (const Node* n : g.nodes) {
    if (op_kind(n->op) == OpKind::Reduce) reductions.push_back(n);
  }
  // Each lane's outputs, accumulated over the rows.
  std::vector<std::string> accs;
  for (const Node* red : reductions) {
    accs.push_back(ve.fresh("acc"));
    body.push_back(TileBuilder::assign(
        accs.back(), b.full("[BLOCK_T, BLOCK_I]", neutral(b, red->op, red->src[0]->dtype), acc_type(red->src[0]))));
  }
  ve.on_reduce = [&](const Node*) -> const TExpr* {
    internal_error("a transposed column's reduction read inside its own row loop", __FILE__, __LINE__);
  };
  // Adds row `r` (a scalar) into the accumulators.
  auto accumulate = [&](std::vector<TStmt>& out, const TExpr* r) {
    ve.out = &out;
    ve.clear_cache();
    ve.split_index(r, tc.reduced, -1, "r");
    for (size_t k = 0; k < reductions.size(); ++k) {
      const Node* red = reductions[k];
      const TExpr* v = ve.value(red->src[0], group_map(g, red->src[0]));
      const TExpr* a = b.var(accs[k]);
      TOp combine = lane_combine(red->op, is_floating(red->src[0]->dtype));
      out.push_back(TileBuilder::assign(accs[k], b.op(combine, {a, v})));
    }
  };
  // for row in range(0, R - R % U, U): for u in tl.static_range(U): row + u; then the R % U last rows unrolled.
  const int64_t u = tc.unroll, whole = tc.r - tc.r % u;
  if (whole > 0) {
    TStmt rows{TStmtKind::For};
    rows.var = "row";
    rows.start = b.i(0);
    rows.stop = whole == tc.r ? R : b.i(whole);
    rows.step = b.i(u);
    const TExpr* r = b.var("row");
    std::vector<TStmt>* inner = &rows.body;
    TStmt unrolled{TStmtKind::For};
    if (u > 1) {
      unrolled.var = "u";
      unrolled.start = b.i(0);
      unrolled.stop = b.i(u);
      unrolled.step = b.i(1);
      unrolled.unroll = true;
      r = b.add(r, b.var("u"));
      inner = &unrolled.body;
    }
    if (wide) r = b.cast(r, DType::Int64);
    if (r->op != TOp::Var) {
      inner->push_back(TileBuilder::assign("r", r));
      r = b.var("r");
    }
    accumulate(*inner, r);
    if (u > 1) rows.body.push_back(std::move(unrolled));
    body.push_back(std::move(rows));
  }
  if (whole < tc.r) {
    TStmt tail{TStmtKind::For};
    tail.var = "r";
    tail.start = b.i(whole);
    tail.stop = R;
    tail.step = b.i(1);
    tail.unroll = true;
    accumulate(tail.body, b.var("r"));
    body.push_back(std::move(tail));
  }
  ve.out = &body;
  ve.clear_cache();
  for (size_t k = 0; k < reductions.size(); ++k) {
    ve.keep_in_cache(reductions[k], group_map(g, reductions[k]), b.var(accs[k]));
  }
  for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
  job.launch.grid = {std::to_string(nt * ni * rest)};
  job.launch.num_warps = tc.warps;
}

}  // namespace tz
