// Attention kernels (flash attention, forward): one BLOCK_M block of queries per program, batch dims on grid
// axis 1. The program walks the keys in BLOCK_N blocks with an online softmax: a running row max m and row
// sum l in float32, scores = q @ kt scaled by scale * log2(e) so that exp2 gives e^(s - max), the output
// accumulated as acc * alpha + p @ v. Causal attention stops at the block holding the diagonal. The scores
// never reach memory; the fused epilogue runs on acc / l before the store. Head dims that are not a power of two
// are covered by two power-of-two pieces (two dots per product, one accumulator and store per value piece).
// fp32 operands use the precision PyTorch's matmul flag implies (PRECISION, as matmul kernels do); under tf32x3
// the kernel splits them into TF32 hi/lo parts itself (Q once per program) for three TF32 dots per product;
// fp16/bf16 feed the tensor cores.
#include <algorithm>
#include <cmath>

#include "graph/view.h"
#include "kernel/lower_kinds.h"

namespace tz {

namespace {

struct Tiles {
  int64_t block_m, block_n, num_warps, num_stages;
};

// Tile sizes. Half types: Triton's Hopper flash-attention choices. fp32 (three TF32 dots per product, twice the
// bytes per element): 64 x 64 tiles, 4 warps up to a 128-wide head piece (H200, 2026-12-03: the 80/48-dim problem
// took 0.53 ms with BLOCK_N = 64 against 0.69 ms with 32, sdpa_basic 1.61 against 1.69 ms; a 128-wide head ran
// 1.18 ms on 4 warps against 1.95 ms on 8).
Tiles choose_tiles(bool half, int64_t l, int64_t s, int64_t head) {
  Tiles t = half ? Tiles{128, 64, head > 64 ? 8 : 4, 3} : Tiles{64, 64, head > 128 ? 8 : 4, 2};
  t.block_m = std::min(t.block_m, std::max<int64_t>(16, next_pow2(l)));
  t.block_n = std::min(t.block_n, std::max<int64_t>(16, next_pow2(s)));
  return t;
}

// A head dim is covered by one or two power-of-two pieces (each at least 16, tl.dot's minimum): 80 = 64 + 16
// and 320 = 256 + 64 cost two dots per product instead of one padded to 128 or 512; a second piece that would
// cover as much as the padding (100 = 64 + 64) is not taken.
struct Piece {
  int64_t off, width;
};

std::vector<Piece> head_pieces(int64_t e) {
  int64_t padded = std::max<int64_t>(16, next_pow2(e));
  int64_t first = padded == e || padded == 16 ? padded : padded / 2;
  int64_t rest = std::max<int64_t>(16, next_pow2(e - first));
  if (first >= e || first + rest >= padded) return {{0, padded}};
  return {{0, first}, {first, rest}};
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
  std::vector<Piece> pe = head_pieces(e), pv = head_pieces(ev);
  Tiles tiles = choose_tiles(half, l, s, std::max(pe[0].width, pv[0].width));
  // fp32: each product is three TF32 dots over hi/lo parts (_tf32_hi, _dot_tf32x3) when PRECISION is tf32x3.
  // Split here rather than by tl.dot's tf32x3, Q's parts are made once per program and the dots accumulate
  // into the running tile.
  bool own_split = !half;
  if (own_split) job.kernel.needs_tf32_split = true;
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
  // One piece: BLOCK_E / re; two: BLOCK_E0, BLOCK_E1 / re0, re1 (likewise EV / rev).
  auto piece_name = [](const std::string& stem, const std::vector<Piece>& ps, size_t i) {
    return ps.size() == 1 ? stem : stem + std::to_string(i);
  };
  std::vector<const TExpr*> BE, BEV;
  for (size_t i = 0; i < pe.size(); ++i) BE.push_back(job.constexpr_param(piece_name("BLOCK_E", pe, i), pe[i].width));
  for (size_t i = 0; i < pv.size(); ++i) BEV.push_back(job.constexpr_param(piece_name("BLOCK_EV", pv, i), pv[i].width));
  job.kernel.params.push_back({"PRECISION", ParamKind::Constexpr});
  job.launch.args.push_back({"PRECISION", half ? "\"ieee\"" : "precision"});

  auto assign = [&](const std::string& name, const TExpr* value) {
    body.push_back(TileBuilder::assign(name, value));
    return b.var(name);
  };
  auto scaled = [&](const TExpr* idx, int64_t stride) { return stride == 1 ? idx : b.mul(idx, b.i(stride)); };
  auto col = [&](const TExpr* x) { return b.expand(x, ":, None"); };
  auto row = [&](const TExpr* x) { return b.expand(x, "None, :"); };
  auto shifted = [&](const TExpr* base, int64_t off) { return off == 0 ? base : b.add(base, b.i(off)); };

  int64_t m_blocks = (l + tiles.block_m - 1) / tiles.block_m;
  // Causal: the last query blocks see the most keys; they start first so that the tail is short.
  const TExpr* pid_m =
      assign("pid_m", causal ? b.op(TOp::Sub, {b.i(m_blocks - 1), b.program_id(0)}) : b.program_id(0));
  std::vector<int64_t> sq = operand_strides(q, rank), sk = operand_strides(kt, rank), sv = operand_strides(v, rank);
  std::vector<int64_t> sm = mask_in_memory ? operand_strides(mask, rank) : std::vector<int64_t>(rank, 0);
  std::vector<const TExpr*> bases = {operand_base(b, q_ptr, q), operand_base(b, k_ptr, kt), operand_base(b, v_ptr, v),
                                     mask_in_memory ? operand_base(b, m_ptr, mask) : nullptr};
  int64_t batch = batch_offsets(b, body, ve, g.space, {&sq, &sk, &sv, &sm}, bases);
  const TExpr* q_base = bases[0];
  const TExpr* k_base = bases[1];
  const TExpr* v_base = bases[2];
  const TExpr* m_base = bases[3];
  int R = rank;
  if (batch > 1) {  // the batch offsets once, outside the key loop
    q_base = assign("q_base", q_base);
    k_base = assign("k_base", k_base);
    v_base = assign("v_base", v_base);
    if (m_base) m_base = assign("m_base", m_base);
  }
  const TExpr* rm = assign("rm", b.add(b.mul(pid_m, BM), b.arange(BM)));
  const TExpr* rn = assign("rn", b.arange(BN));
  std::vector<const TExpr*> re, rev;
  for (size_t i = 0; i < pe.size(); ++i) re.push_back(assign(piece_name("re", pe, i), b.arange(BE[i])));
  for (size_t i = 0; i < pv.size(); ++i) rev.push_back(assign(piece_name("rev", pv, i), b.arange(BEV[i])));
  const TExpr* row_ok = l % tiles.block_m == 0 ? nullptr : b.lt(col(rm), L);
  // Masks of a piece that reaches past the head dim: along a tile's columns (along its rows for K^T).
  auto e_ok = [&](size_t i, bool as_col) -> const TExpr* {
    if (pe[i].off + pe[i].width <= e) return nullptr;
    const TExpr* idx = shifted(re[i], pe[i].off);
    return b.lt(as_col ? col(idx) : row(idx), E);
  };
  auto ev_ok = [&](size_t i) -> const TExpr* {
    return pv[i].off + pv[i].width <= ev ? nullptr : b.lt(row(shifted(rev[i], pv[i].off)), EV);
  };
  // x = hi + lo for the three-dot product (lo is exact; for other precisions hi is x and lo unused).
  struct Split {
    const TExpr *hi, *lo;
  };
  auto split = [&](std::vector<TStmt>& out, const std::string& name, const TExpr* x) {
    out.push_back(TileBuilder::assign(name + "_hi", b.call("_tf32_hi", {x, b.var("PRECISION")})));
    out.push_back(TileBuilder::assign(name + "_lo", b.op(TOp::Sub, {x, b.var(name + "_hi")})));
    return Split{b.var(name + "_hi"), b.var(name + "_lo")};
  };

  body.push_back(TileBuilder::comment("the query block stays in registers; scores are in log2 units"));
  std::vector<const TExpr*> qv;
  std::vector<Split> qs;
  for (size_t i = 0; i < pe.size(); ++i) {
    const TExpr* q_mask = b.band(row_ok, e_ok(i, false));
    std::string name = piece_name("q", pe, i);
    qv.push_back(assign(name, b.load(b.add(b.add(shifted(q_base, pe[i].off * sq[R - 1]), scaled(col(rm), sq[R - 2])),
                                           scaled(row(re[i]), sq[R - 1])),
                                     q_mask, q_mask ? b.f(0.0) : nullptr)));
    if (own_split) qs.push_back(split(body, name, qv[i]));
  }
  const TExpr* m_i = assign("m_i", b.full("[BLOCK_M, 1]", b.f(-INFINITY), DType::Float32));
  const TExpr* l_i = assign("l_i", b.zeros("[BLOCK_M, 1]", DType::Float32));
  std::vector<const TExpr*> acc;
  for (size_t i = 0; i < pv.size(); ++i) {
    std::string shape = "[BLOCK_M, " + piece_name("BLOCK_EV", pv, i) + "]";
    acc.push_back(assign(piece_name("acc", pv, i), b.zeros(shape, DType::Float32)));
  }

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
    auto dot = [&](const Split& a, const TExpr* a_plain, const std::string& b_name, const TExpr* bv,
                   const TExpr* acc_in) -> const TExpr* {
      if (!own_split) return b.op(TOp::Dot, {a_plain, bv, acc_in, b.var("PRECISION")});
      Split bs = split(lb, b_name, bv);
      return b.call("_dot_tf32x3", {a.hi, a.lo, bs.hi, bs.lo, acc_in, b.var("PRECISION")});
    };
    const TExpr* cols = lassign("cols", b.add(b.var("n0"), rn));
    const TExpr* key_ok_row = s % tiles.block_n == 0 ? nullptr : b.lt(row(cols), S);
    const TExpr* key_ok_col = s % tiles.block_n == 0 ? nullptr : b.lt(col(cols), S);
    const TExpr* qk = b.zeros("[BLOCK_M, BLOCK_N]", DType::Float32);
    for (size_t i = 0; i < pe.size(); ++i) {
      const TExpr* kt_mask = b.band(e_ok(i, true), key_ok_row);
      std::string name = piece_name("kt", pe, i);
      const TExpr* ktv = lassign(
          name, b.load(b.add(b.add(shifted(k_base, pe[i].off * sk[R - 2]), scaled(col(re[i]), sk[R - 2])),
                             scaled(row(cols), sk[R - 1])),
                       kt_mask, kt_mask ? b.f(0.0) : nullptr));
      qk = dot(own_split ? qs[i] : Split{}, qv[i], name, ktv, qk);
      if (i + 1 < pe.size()) qk = lassign("s", qk);
    }
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
    TExpr cast_p{TOp::Cast};
    cast_p.args = {p, b.op(TOp::ElementTy, {b.var(v_ptr)})};
    const TExpr* p_plain = own_split ? p : job.arena.make(cast_p);
    Split ps = own_split ? split(lb, "p", p) : Split{};
    for (size_t i = 0; i < pv.size(); ++i) {
      const TExpr* v_mask = b.band(key_ok_col, ev_ok(i));
      std::string name = piece_name("v", pv, i);
      const TExpr* vv = lassign(
          name, b.load(b.add(b.add(shifted(v_base, pv[i].off * sv[R - 1]), scaled(col(cols), sv[R - 2])),
                             scaled(row(rev[i]), sv[R - 1])),
                       v_mask, v_mask ? b.f(0.0) : nullptr));
      std::string acc_name = piece_name("acc", pv, i);
      lb.push_back(TileBuilder::assign(acc_name, dot(ps, p_plain, name, vv, b.mul(acc[i], alpha))));
    }
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

  // Epilogue over each output piece's tile.
  ve.merge_dims([](int) { return false; });
  ve.index[R - 2] = col(rm);
  ve.axis_of[R - 2] = 0;
  ve.axis_of[R - 1] = 1;
  for (size_t i = 0; i < pv.size(); ++i) {
    const TExpr* out = assign(piece_name("out", pv, i), b.op(TOp::Div, {acc[i], denom}));
    const TExpr* cv = rev[i];
    if (pv[i].off != 0) cv = assign(piece_name("cv", pv, i), shifted(rev[i], pv[i].off));
    ve.clear_cache();
    ve.index[R - 1] = row(cv);
    ve.axis_mask = {row_ok, ev_ok(i)};
    ve.axis_anchor = {col(rm), row(cv)};
    ve.keep_in_cache(at, group_map(g, at), out);  // size-1 dims map to -1, as consumers read it
    for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
  }

  job.launch.grid = {std::to_string(m_blocks)};
  if (batch > 1) job.launch.grid.push_back(std::to_string(batch));
  job.launch.num_warps = static_cast<int>(tiles.num_warps);
  job.launch.num_stages = static_cast<int>(tiles.num_stages);
}

}  // namespace tz
