// Attention kernels (flash attention, forward): one BLOCK_M block of queries per program, batch dims on grid
// axis 1. The program walks the keys in BLOCK_N blocks with an online softmax: a running row max m and row
// sum l in float32, scores = q @ kt scaled by scale * log2(e) so that exp2 gives e^(s - max), the output
// accumulated as acc * alpha + p @ v. Causal attention stops at the block holding the diagonal. The scores
// never reach memory; the fused epilogue runs on acc / l before the single store. fp32 operands use the
// precision PyTorch's matmul flag implies (PRECISION, as matmul kernels do); fp16/bf16 feed the tensor cores.
#include <algorithm>
#include <cmath>

#include "graph/view.h"
#include "kernel/lower_kinds.h"

namespace tz {

namespace {

struct Tiles {
  int64_t block_m, block_n, num_warps, num_stages;
};

// Tile sizes (Triton's Hopper flash-attention choices for half types; fp32 with tf32x3 runs three dots per
// product and holds twice the bytes per element, so its tiles are halved).
Tiles choose_tiles(bool half, int64_t l, int64_t s, int64_t head) {
  Tiles t = half ? Tiles{128, 64, head > 64 ? 8 : 4, 3} : Tiles{64, 32, head > 64 ? 8 : 4, 2};
  t.block_m = std::min(t.block_m, std::max<int64_t>(16, next_pow2(l)));
  t.block_n = std::min(t.block_n, std::max<int64_t>(16, next_pow2(s)));
  return t;
}

}  // namespace

void lower_attention(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const Node* at = g.nodes.front();
  TZ_ASSERT(at->op == Op::Attention, "attention kernel without an attention first");
  const Node* q = at->src[0];
  const Node* kt = at->src[1];
  const Node* v = at->src[2];
  const Node* mask = at->src.size() > 3 ? at->src[3] : nullptr;
  bool causal = at->attr.ints[0] != 0;
  int64_t mask_kind = at->attr.ints[1];
  bool safe = at->attr.ints[2] != 0;
  double scale = at->attr.floats[0], fill = at->attr.floats[1];
  const double log2e = 1.4426950408889634;

  int rank = static_cast<int>(g.space.size());
  int64_t l = q->shape[q->rank() - 2], e = q->shape.back(), s = kt->shape.back(), ev = v->shape.back();
  bool half = at->dtype == DType::Float16 || at->dtype == DType::BFloat16;
  int64_t block_e = std::max<int64_t>(16, next_pow2(e)), block_ev = std::max<int64_t>(16, next_pow2(ev));
  Tiles tiles = choose_tiles(half, l, s, std::max(block_e, block_ev));
  auto& body = job.kernel.body;
  ve.out = &body;

  std::string q_ptr = job.buffers.pointer(view_root(q));
  std::string k_ptr = job.buffers.pointer(view_root(kt));
  std::string v_ptr = job.buffers.pointer(view_root(v));
  const Node* mask_root = mask ? view_root(mask) : nullptr;
  bool mask_in_memory = mask_root && mask_root->op != Op::Const;
  std::string m_ptr = mask_in_memory ? job.buffers.pointer(mask_root) : "";
  const TExpr* L = job.constexpr_param("L", l);
  const TExpr* S = job.constexpr_param("S", s);
  const TExpr* E = job.constexpr_param("E", e);
  const TExpr* EV = job.constexpr_param("EV", ev);
  const TExpr* BM = job.constexpr_param("BLOCK_M", tiles.block_m);
  const TExpr* BN = job.constexpr_param("BLOCK_N", tiles.block_n);
  const TExpr* BE = job.constexpr_param("BLOCK_E", block_e);
  const TExpr* BEV = job.constexpr_param("BLOCK_EV", block_ev);
  job.kernel.params.push_back({"PRECISION", ParamKind::Constexpr});
  job.launch.args.push_back({"PRECISION", half ? "\"ieee\"" : "precision"});

  auto assign = [&](const std::string& name, const TExpr* value) {
    body.push_back(TileBuilder::assign(name, value));
    return b.var(name);
  };
  auto scaled = [&](const TExpr* idx, int64_t stride) { return stride == 1 ? idx : b.mul(idx, b.i(stride)); };
  auto col = [&](const TExpr* x) { return b.expand(x, ":, None"); };
  auto row = [&](const TExpr* x) { return b.expand(x, "None, :"); };

  int64_t m_blocks = (l + tiles.block_m - 1) / tiles.block_m;
  // Causal: the last query blocks see the most keys; they start first so that the tail is short.
  const TExpr* pid_m =
      assign("pid_m", causal ? b.op(TOp::Sub, {b.i(m_blocks - 1), b.program_id(0)}) : b.program_id(0));
  std::vector<int64_t> sq = operand_strides(q, rank), sk = operand_strides(kt, rank), sv = operand_strides(v, rank);
  std::vector<int64_t> sm = mask_in_memory ? operand_strides(mask, rank) : std::vector<int64_t>(rank, 0);
  const TExpr* q_base = b.var(q_ptr);
  const TExpr* k_base = b.var(k_ptr);
  const TExpr* v_base = b.var(v_ptr);
  const TExpr* m_base = mask_in_memory ? b.var(m_ptr) : nullptr;
  int64_t batch = 1;
  for (int d = 0; d < rank - 2; ++d) batch *= g.space[d];
  if (batch > 1) {
    body.push_back(TileBuilder::assign("bidx", b.program_id(1)));
    int64_t inner = 1;
    for (int d = rank - 3; d >= 0; --d) {
      if (g.space[d] == 1) continue;
      const TExpr* idx = b.var("bidx");
      if (inner != 1) idx = b.op(TOp::FloorDiv, {idx, b.i(inner)});
      if (inner * g.space[d] != batch) idx = b.op(TOp::Mod, {idx, b.i(g.space[d])});
      std::string name = "b" + std::to_string(d);
      const TExpr* bd = assign(name, idx);
      ve.index[d] = bd;
      if (sq[d]) q_base = b.add(q_base, b.mul(bd, b.i(sq[d])));
      if (sk[d]) k_base = b.add(k_base, b.mul(bd, b.i(sk[d])));
      if (sv[d]) v_base = b.add(v_base, b.mul(bd, b.i(sv[d])));
      if (m_base && sm[d]) m_base = b.add(m_base, b.mul(bd, b.i(sm[d])));
      inner *= g.space[d];
    }
  }
  int R = rank;
  if (batch > 1) {  // the batch offsets once, outside the key loop
    q_base = assign("q_base", q_base);
    k_base = assign("k_base", k_base);
    v_base = assign("v_base", v_base);
    if (m_base) m_base = assign("m_base", m_base);
  }
  const TExpr* rm = assign("rm", b.add(b.mul(pid_m, BM), b.arange(BM)));
  const TExpr* rn = assign("rn", b.arange(BN));
  const TExpr* re = assign("re", b.arange(BE));
  const TExpr* rev = assign("rev", b.arange(BEV));
  const TExpr* row_ok = l % tiles.block_m == 0 ? nullptr : b.lt(col(rm), L);
  const TExpr* e_ok = e == block_e ? nullptr : b.lt(row(re), E);
  const TExpr* ev_ok = ev == block_ev ? nullptr : b.lt(row(rev), EV);

  body.push_back(TileBuilder::comment("the query block stays in registers; scores are in log2 units"));
  const TExpr* q_mask = b.band(row_ok, e_ok);
  const TExpr* qv = assign(
      "q", b.load(b.add(b.add(q_base, scaled(col(rm), sq[R - 2])), scaled(row(re), sq[R - 1])), q_mask,
                  q_mask ? b.f(0.0) : nullptr));
  const TExpr* m_i = assign("m_i", b.full("[BLOCK_M, 1]", b.f(-INFINITY), DType::Float32));
  const TExpr* l_i = assign("l_i", b.zeros("[BLOCK_M, 1]", DType::Float32));
  const TExpr* acc = assign("acc", b.zeros("[BLOCK_M, BLOCK_EV]", DType::Float32));

  // One loop over key blocks [start, stop); `diagonal` applies the causal mask.
  auto key_loop = [&](const TExpr* start, const TExpr* stop, bool diagonal) {
    TStmt loop{TStmtKind::For};
    loop.var = "n0";
    loop.start = start;
    loop.stop = stop;
    loop.step = BN;
    auto& lb = loop.body;
    auto lassign = [&](const std::string& name, const TExpr* value) {
      lb.push_back(TileBuilder::assign(name, value));
      return b.var(name);
  };
  const TExpr* cols = lassign("cols", b.add(b.var("n0"), rn));
  const TExpr* key_ok_row = s % tiles.block_n == 0 ? nullptr : b.lt(row(cols), S);
  const TExpr* key_ok_col = s % tiles.block_n == 0 ? nullptr : b.lt(col(cols), S);
  const TExpr* e_ok_col = e == block_e ? nullptr : b.lt(col(re), E);
  const TExpr* kt_mask = b.band(e_ok_col, key_ok_row);
  const TExpr* ktv = lassign(
      "kt", b.load(b.add(b.add(k_base, scaled(col(re), sk[R - 2])), scaled(row(cols), sk[R - 1])), kt_mask,
                   kt_mask ? b.f(0.0) : nullptr));
  const TExpr* qk = b.op(TOp::Dot, {qv, ktv, b.zeros("[BLOCK_M, BLOCK_N]", DType::Float32), b.var("PRECISION")});
  const TExpr* sc = lassign("s", b.mul(qk, b.f(scale * log2e)));
  const TExpr* neg_inf = b.f(-INFINITY);
  if (mask_kind != 0) {
    const TExpr* mv;
    if (mask_in_memory) {
      const TExpr* mm = b.band(row_ok, key_ok_row);
      mv = lassign("mask", b.load(b.add(b.add(m_base, scaled(col(rm), sm[R - 2])), scaled(row(cols), sm[R - 1])),
                                  mm, mm ? b.f(0.0) : nullptr));
    } else {
      mv = b.f(mask_root->attr.f);
    }
    const TExpr* fill_v = b.f(std::isinf(fill) ? fill : fill * log2e);
    if (mask_kind == 1) sc = lassign("s", b.op(TOp::Where, {mv, sc, fill_v}));
    if (mask_kind == 2) sc = lassign("s", b.op(TOp::Where, {mv, fill_v, sc}));
    if (mask_kind == 3) sc = lassign("s", b.add(sc, b.mul(b.cast(mv, DType::Float32), b.f(log2e))));
  }
  if (diagonal) sc = lassign("s", b.op(TOp::Where, {b.op(TOp::Ge, {col(rm), row(cols)}), sc, neg_inf}));
  if (key_ok_row) sc = lassign("s", b.op(TOp::Where, {key_ok_row, sc, neg_inf}));
  const TExpr* m_new = lassign("m_new", b.op(TOp::Maximum, {m_i, b.reduce(TOp::Max, sc, 1)}));
  if (mask_kind != 0) {
    // A row whose keys so far are all masked has m = -inf; subtracting 0 instead keeps exp2 at 0, not NaN.
    m_new = lassign("m_new", b.op(TOp::Where, {b.op(TOp::Eq, {m_new, neg_inf}), b.f(0.0), m_new}));
  }
  const TExpr* alpha = lassign("alpha", b.op(TOp::Exp2, {b.op(TOp::Sub, {m_i, m_new})}));
  const TExpr* p = lassign("p", b.op(TOp::Exp2, {b.op(TOp::Sub, {sc, m_new})}));
  lb.push_back(TileBuilder::assign("l_i", b.add(b.mul(l_i, alpha), b.reduce(TOp::Sum, p, 1))));
  const TExpr* v_mask = b.band(key_ok_col, ev_ok);
  const TExpr* vv = lassign(
      "v", b.load(b.add(b.add(v_base, scaled(col(cols), sv[R - 2])), scaled(row(rev), sv[R - 1])), v_mask,
                  v_mask ? b.f(0.0) : nullptr));
  TExpr cast_p{TOp::Cast};
  cast_p.args = {p, b.op(TOp::ElementTy, {b.var(v_ptr)})};
  const TExpr* pv = b.op(TOp::Dot, {job.arena.make(cast_p), vv, b.mul(acc, alpha), b.var("PRECISION")});
  lb.push_back(TileBuilder::assign("acc", pv));
  lb.push_back(TileBuilder::assign("m_i", m_new));
  body.push_back(std::move(loop));
  };
  if (!causal) {
    key_loop(b.i(0), S, false);
  } else if (tiles.block_m % tiles.block_n == 0) {
    // Causal: blocks left of this query block need no mask; the diagonal block(s) do; keys past the last
    // query of the block are all masked, so the loop ends there.
    const TExpr* lo = assign("lo", b.mul(pid_m, BM));
    key_loop(b.i(0), b.op(TOp::Min2, {lo, S}), false);
    key_loop(lo, b.op(TOp::Min2, {b.mul(b.add(pid_m, b.i(1)), BM), S}), true);
  } else {
    key_loop(b.i(0), b.op(TOp::Min2, {b.mul(b.add(pid_m, b.i(1)), BM), S}), true);
  }

  // SDPA gives 0 (not NaN) for a query that sees no key: its acc and l are both 0 then.
  const TExpr* denom = mask_kind != 0 && safe ? b.op(TOp::Where, {b.op(TOp::Gt, {l_i, b.f(0.0)}), l_i, b.f(1.0)}) : l_i;
  const TExpr* result = b.op(TOp::Div, {acc, denom});
  const TExpr* out = assign("out", result);

  // Epilogue over the output tile.
  ve.merge_dims([](int) { return false; });
  ve.index[R - 2] = col(rm);
  ve.index[R - 1] = row(rev);
  ve.axis_of[R - 2] = 0;
  ve.axis_of[R - 1] = 1;
  ve.axis_mask = {row_ok, ev_ok};
  ve.keep_in_cache(at, group_map(g, at), out);  // size-1 dims map to -1, as consumers read it
  for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));

  job.launch.grid = {std::to_string(m_blocks)};
  if (batch > 1) job.launch.grid.push_back(std::to_string(batch));
  job.launch.num_warps = static_cast<int>(tiles.num_warps);
  job.launch.num_stages = static_cast<int>(tiles.num_stages);
}

}  // namespace tz
