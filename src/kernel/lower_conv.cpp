// Convolution kernels (1-D/2-D/3-D; strided, padded, dilated, grouped, transposed) as an implicit GEMM read
// straight from the NCHW tensors: each program owns a [BLOCK_CO output channels, BLOCK_P output positions]
// tile (positions = batch and spatial dims flattened, so loads and the store run along the contiguous width),
// loops over the kernel positions and, inside, over the input channels of its group; padding and the stride
// holes of transposed convolutions are load masks. Channels are the tl.dot reduction when a group has at least
// kConvMinDotChannels output channels; smaller groups (depthwise) accumulate outer products in registers instead.
// The fused pointwise epilogue (bias, activations) runs on the float32 accumulator before the single store.
// 16-bit transposed convs whose kernel equals their stride (taps do not overlap) are one plain GEMM instead:
// lower_unfolded_transposed.
#include <algorithm>
#include <numeric>

#include "graph/view.h"
#include "kernel/lower_kinds.h"
#include "passes/conv_layout.h"

namespace tz {

namespace {

TStmt loop(const std::string& var, const TExpr* start, const TExpr* stop, const TExpr* step) {
  TStmt s{TStmtKind::For};
  s.var = var;
  s.start = start;
  s.stop = stop;
  s.step = step;
  return s;
}

// The unfolded transposed conv (see unfolded_transposed). A program owns BLOCK_I rows (batch and leading input
// dims, flattened) by BLOCK_J positions along the last input dim, and BLOCK_CO output channels with all their
// taps: acc[position, (channel, tap)] = x tile (positions contiguous: an M-major operand) @ w tile (the weight's
// own [C_in, C_out, *k] rows), one tl.dot per channel chunk. The accumulator is then rearranged (reshape and
// permute) into [channel, row, leading taps] x [last position, last tap] so that each row of the stored tile is
// one contiguous run of the output (2 * BLOCK_J elements for a 2x2 kernel: 16-byte stores, full sectors),
// where storing it per tap would write every other element.
void lower_unfolded_transposed(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const Node* conv = g.nodes.front();
  const Node* x = conv->src[0];
  const Node* w = conv->src[1];
  const int nd = conv->rank() - 2;
  const int64_t groups = conv->attr.ints2[0];
  const int64_t batch = conv->shape[0], cog = conv->shape[1] / groups, cig = x->shape[1] / groups;
  std::vector<int64_t> ksize(w->shape.begin() + 2, w->shape.end()), isize(x->shape.begin() + 2, x->shape.end()),
      osize(conv->shape.begin() + 2, conv->shape.end());
  int64_t kvol = 1, rows = batch;
  for (int d = 0; d < nd; ++d) kvol *= ksize[d];
  for (int d = 0; d + 1 < nd; ++d) rows *= isize[d];
  const int64_t width = isize[nd - 1], k_last = ksize[nd - 1], k_lead = kvol / k_last;

  // BLOCK_J: the power of 2 that tiles the last input dim with the least waste (the larger on ties), at least 8
  // elements (16-byte loads) when the dim has them; BLOCK_I rows make 128 positions; BLOCK_CO channels make 128
  // (channel, tap) columns: a 128 x 128 fp32 accumulator over 4 warps.
  int64_t block_j = 1, waste = -1;
  for (int64_t bj = std::min<int64_t>(128, next_pow2(width)); bj >= std::min<int64_t>(8, next_pow2(width)); bj /= 2) {
    const int64_t wst = (width + bj - 1) / bj * bj - width;
    if (waste < 0 || wst < waste) block_j = bj, waste = wst;
  }
  const int64_t block_i = std::clamp<int64_t>(128 / block_j, std::max<int64_t>(1, 16 / block_j),
                                              std::max<int64_t>(next_pow2(rows), 16 / block_j));
  const int64_t block_co = std::max(std::min(next_pow2(cog), 128 / kvol), std::max<int64_t>(1, 16 / kvol));
  const int64_t block_k = std::clamp<int64_t>(next_pow2(cig), 16, 64);
  const int64_t co_tiles = (cog + block_co - 1) / block_co, j_tiles = (width + block_j - 1) / block_j;
  const int64_t r_tiles = (rows + block_i - 1) / block_i, iters = (cig + block_k - 1) / block_k;

  auto& body = job.kernel.body;
  ve.out = &body;
  std::string x_ptr = job.buffers.pointer(view_root(x));
  std::string w_ptr = job.buffers.pointer(view_root(w));
  std::vector<int64_t> sx = operand_strides(x, x->shape.size()), sw = operand_strides(w, w->shape.size());
  const TExpr* CIG = job.constexpr_param("C_IN_GROUP", cig);
  const TExpr* COG = job.constexpr_param("C_OUT_GROUP", cog);
  const TExpr* BI = job.constexpr_param("BLOCK_I", block_i);
  const TExpr* BJ = job.constexpr_param("BLOCK_J", block_j);
  const TExpr* BCO = job.constexpr_param("BLOCK_CO", block_co);
  const TExpr* BK = job.constexpr_param("BLOCK_K", block_k);
  job.kernel.params.push_back({"PRECISION", ParamKind::Constexpr});
  job.launch.args.push_back({"PRECISION", "\"ieee\""});
  auto assign = [&](std::vector<TStmt>& out, const std::string& name, const TExpr* v) {
    out.push_back(TileBuilder::assign(name, v));
    return b.var(name);
  };
  auto scaled = [&](const TExpr* idx, int64_t s) { return s == 1 ? idx : b.mul(idx, b.i(s)); };
  auto fdiv = [&](const TExpr* e, int64_t d) { return d == 1 ? e : b.op(TOp::FloorDiv, {e, b.i(d)}); };
  auto mod = [&](const TExpr* e, int64_t d) { return b.op(TOp::Mod, {e, b.i(d)}); };
  // rows (flattened batch and leading input dims) -> [batch index, leading input indices...]
  auto split_rows = [&](std::vector<TStmt>& out, const TExpr* r, const std::string& suffix) {
    std::vector<const TExpr*> idx(static_cast<size_t>(nd), nullptr);  // [0]: batch, [1 + d]: input dim d
    int64_t inner = 1;
    for (int d = nd - 2; d >= 0; --d) {
      const TExpr* e = fdiv(r, inner);
      if (batch > 1 || d > 0) e = mod(e, isize[d]);
      if (isize[d] > 1) idx[d + 1] = assign(out, "i" + std::to_string(d) + suffix, e);
      inner *= isize[d];
    }
    if (batch > 1) idx[0] = assign(out, "nb" + suffix, fdiv(r, inner));
    return idx;
  };

  // Program -> (row tile, column tile, channel tile; group): the channel tiles of one position tile run side by
  // side, so the input they share is read from L2.
  const TExpr* pid = assign(body, "pid", b.program_id(0));
  const TExpr* pid_p = pid;
  const TExpr* pid_co = nullptr;
  if (co_tiles > 1) {
    pid_co = assign(body, "pid_co", mod(pid, co_tiles));
    pid_p = assign(body, "pid_p", fdiv(pid, co_tiles));
  }
  const TExpr* pid_j = nullptr;
  const TExpr* pid_r = pid_p;
  if (j_tiles > 1) {
    pid_j = assign(body, "pid_j", mod(pid_p, j_tiles));
    pid_r = assign(body, "pid_r", fdiv(pid_p, j_tiles));
  }
  const TExpr* grp = groups > 1 ? assign(body, "grp", b.program_id(1)) : nullptr;
  body.push_back(TileBuilder::comment("rp: input positions (BLOCK_I rows of the batch and leading dims, BLOCK_J along "
                                      "the last), rn: (output channel, tap) pairs"));
  const TExpr* rp = assign(body, "rp", b.arange(b.mul(BI, BJ)));
  // Rows past the end wrap around (the store is masked); columns past the end are masked.
  const TExpr* rrow = b.add(b.mul(pid_r, BI), b.op(TOp::FloorDiv, {rp, BJ}));
  if (rows % block_i) rrow = mod(rrow, rows);
  rrow = assign(body, "row", rrow);
  const TExpr* col = b.op(TOp::Mod, {rp, BJ});
  if (pid_j) col = b.add(b.mul(pid_j, BJ), col);
  col = assign(body, "j", col);
  std::vector<const TExpr*> ridx = split_rows(body, rrow, "");
  const TExpr* x_base = operand_base(b, x_ptr, x);
  if (grp) x_base = b.add(x_base, b.mul(grp, b.i(cig * sx[1])));
  const TExpr* x_off = nullptr;
  auto sum = [&](const TExpr* acc, const TExpr* term) { return acc ? b.add(acc, term) : term; };
  if (ridx[0] && sx[0]) x_off = sum(x_off, scaled(ridx[0], sx[0]));
  for (int d = 0; d + 1 < nd; ++d) {
    if (ridx[d + 1] && sx[d + 2]) x_off = sum(x_off, scaled(ridx[d + 1], sx[d + 2]));
  }
  x_off = sum(x_off, scaled(col, sx[nd + 1]));
  const TExpr* x_ptrs = assign(body, "x_ptrs", b.add(x_base, x_off));
  const TExpr* jmask = width % block_j ? assign(body, "jmask", b.lt(col, b.i(width))) : nullptr;

  // Weight columns: n = (channel, tap) in the weight's own order; one flat run when the weight is contiguous
  // along (C_out, *k), as passes/conv_layout.cpp leaves it.
  const int64_t sw_co = sw[1];
  bool flat = sw_co == kvol || cog == 1;
  int64_t run = 1;
  for (int d = nd - 1; d >= 0; --d) {
    flat = flat && (ksize[d] == 1 || sw[d + 2] == run);
    run *= ksize[d];
  }
  const TExpr* rn = assign(body, "rn", b.arange(b.mul(BCO, b.i(kvol))));
  const TExpr* w_base = operand_base(b, w_ptr, w);
  if (grp) w_base = b.add(w_base, b.mul(grp, b.i(cig * sw[0])));
  const TExpr* w_off = nullptr;
  if (flat) {
    const TExpr* n = pid_co ? b.add(b.mul(pid_co, b.mul(BCO, b.i(kvol))), rn) : rn;
    w_off = cog % block_co ? mod(n, cog * kvol) : n;
  } else {
    const TExpr* co = fdiv(rn, kvol);
    if (pid_co) co = b.add(b.mul(pid_co, BCO), co);
    if (cog % block_co) co = b.op(TOp::Mod, {co, COG});
    w_off = scaled(co, sw_co);
    int64_t inner = 1;
    for (int d = nd - 1; d >= 0; --d) {
      if (ksize[d] > 1 && sw[d + 2]) w_off = b.add(w_off, scaled(mod(fdiv(rn, inner), ksize[d]), sw[d + 2]));
      inner *= ksize[d];
    }
  }
  const TExpr* w_ptrs = assign(body, "w_ptrs", b.add(w_base, w_off));
  assign(body, "rk", b.arange(BK));
  body.push_back(TileBuilder::assign("acc", b.zeros("[BLOCK_I * BLOCK_J, BLOCK_CO * " + std::to_string(kvol) + "]",
                                                    DType::Float32)));

  std::vector<TStmt> kbody;
  const TExpr* ck = iters > 1 ? assign(kbody, "ck", b.add(b.mul(b.var("kk"), BK), b.var("rk"))) : b.var("rk");
  const TExpr* kmask_x = cig % block_k ? b.lt(b.expand(ck, "None, :"), CIG) : nullptr;
  const TExpr* kmask_w = cig % block_k ? b.lt(b.expand(ck, ":, None"), CIG) : nullptr;
  const TExpr* xmask = b.band(jmask ? b.expand(jmask, ":, None") : nullptr, kmask_x);
  assign(kbody, "xt", b.load(b.add(b.expand(x_ptrs, ":, None"), scaled(b.expand(ck, "None, :"), sx[1])), xmask,
                             xmask ? b.f(0.0) : nullptr));
  assign(kbody, "wt", b.load(b.add(b.expand(w_ptrs, "None, :"), scaled(b.expand(ck, ":, None"), sw[0])), kmask_w,
                             kmask_w ? b.f(0.0) : nullptr));
  assign(kbody, "acc", b.op(TOp::Dot, {b.var("xt"), b.var("wt"), b.var("acc"), b.var("PRECISION")}));
  if (iters > 1) {
    TStmt l = loop("kk", b.i(0), job.constexpr_param("K_ITERS", iters), b.i(1));
    l.body = std::move(kbody);
    body.push_back(std::move(l));
  } else {
    for (auto& s : kbody) body.push_back(std::move(s));
  }

  // Rearranged accumulator: [BLOCK_I, BLOCK_J, BLOCK_CO, leading taps, last tap] ->
  // [BLOCK_CO * BLOCK_I * leading taps (rows of the output), BLOCK_J * last tap (a contiguous run of the output)].
  // (tl.reshape and tl.permute are printed as calls: the tile IR has no reshape operator.)
  const std::string kl = std::to_string(k_lead), kt = std::to_string(k_last);
  body.push_back(TileBuilder::comment("rows: (output channel, input row, leading taps); columns: (last input position, "
                                      "last tap), one contiguous run of the output"));
  const std::string split_shape = "(BLOCK_I, BLOCK_J, BLOCK_CO, " + kl + ", " + kt + ")";
  const std::string tile_shape = "(BLOCK_CO * BLOCK_I * " + kl + ", BLOCK_J * " + kt + ")";
  assign(body, "acc", b.call("tl.reshape", {b.var("acc"), b.var(split_shape)}));
  assign(body, "acc", b.call("tl.permute", {b.var("acc"), b.var("(2, 0, 3, 1, 4)")}));
  const TExpr* tile = assign(body, "acc", b.call("tl.reshape", {b.var("acc"), b.var(tile_shape)}));
  const TExpr* rr = assign(body, "rr", b.arange(b.mul(b.mul(BCO, BI), b.i(k_lead))));
  const TExpr* rw = assign(body, "rw", b.arange(b.mul(BJ, b.i(k_last))));
  const TExpr* rc = fdiv(rr, block_i * k_lead);
  if (pid_co) rc = b.add(b.mul(pid_co, BCO), rc);
  rc = assign(body, "rc", rc);
  const TExpr* orow = b.op(TOp::Mod, {fdiv(rr, k_lead), BI});
  orow = assign(body, "orow", b.add(b.mul(pid_r, BI), orow));
  std::vector<const TExpr*> oidx = split_rows(body, orow, "o");
  const TExpr* ta = k_lead > 1 ? assign(body, "ta", mod(rr, k_lead)) : nullptr;
  std::vector<const TExpr*> o(nd, nullptr);
  int64_t tinner = 1;
  for (int d = nd - 2; d >= 0; --d) {
    const TExpr* e = oidx[d + 1] ? scaled(oidx[d + 1], ksize[d]) : nullptr;
    if (ksize[d] > 1) {
      const TExpr* a = fdiv(ta, tinner);
      if (tinner * ksize[d] < k_lead) a = mod(a, ksize[d]);
      e = e ? b.add(e, a) : a;
    }
    tinner *= ksize[d];
    if (e && osize[d] > 1) o[d] = assign(body, "o" + std::to_string(d), e);
  }
  const TExpr* olast = pid_j ? b.add(b.mul(pid_j, b.mul(BJ, b.i(k_last))), rw) : rw;
  o[nd - 1] = assign(body, "o" + std::to_string(nd - 1), olast);

  ve.merge_dims([](int) { return false; });
  const TExpr* co_full = grp ? b.add(b.mul(grp, COG), rc) : rc;
  ve.index[0] = oidx[0] ? b.expand(oidx[0], ":, None") : b.i(0);
  ve.axis_of[0] = oidx[0] ? 0 : -1;
  ve.index[1] = b.expand(co_full, ":, None");
  ve.axis_of[1] = 0;
  for (int d = 0; d < nd; ++d) {
    if (osize[d] > 1) ve.index[d + 2] = b.expand(o[d], d + 1 < nd ? ":, None" : "None, :");
    ve.axis_of[d + 2] = d + 1 < nd ? 0 : 1;
  }
  const TExpr* row_mask = rows % block_i ? b.lt(b.expand(orow, ":, None"), b.i(rows)) : nullptr;
  if (cog % block_co) row_mask = b.band(row_mask, b.lt(b.expand(rc, ":, None"), COG));
  const TExpr* col_mask = width % block_j ? b.lt(b.expand(o[nd - 1], "None, :"), b.i(osize[nd - 1])) : nullptr;
  ve.axis_mask = {row_mask, col_mask};
  ve.keep_in_cache(conv, group_map(g, conv), tile);
  for (auto* out : g.outputs) ve.store(out, group_map(g, out), ve.value(out, group_map(g, out)));

  job.launch.grid = {std::to_string(r_tiles * j_tiles * co_tiles)};
  if (groups > 1) job.launch.grid.push_back(std::to_string(groups));
  job.launch.num_warps = 4;
  // 2 stages, as for the other 16-bit convs whose 3-stage pipelines miscompiled on the H200 (docs/NUMERICS.md);
  // the reduction is short (C_in / BLOCK_K steps) anyway.
  job.launch.num_stages = 2;
}

}  // namespace

void lower_conv(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const Node* conv = g.nodes.front();
  TZ_ASSERT(conv->op == Op::Conv, "conv kernel without a conv first");
  if (unfolded_transposed(conv)) {
    lower_unfolded_transposed(job);
    return;
  }
  const Node* x = conv->src[0];
  const Node* w = conv->src[1];
  const int rank = conv->rank(), nd = rank - 2;
  const auto& ints = conv->attr.ints;
  std::vector<int64_t> stride(ints.begin(), ints.begin() + nd), pad(ints.begin() + nd, ints.begin() + 2 * nd),
      dil(ints.begin() + 2 * nd, ints.end());
  const int64_t groups = conv->attr.ints2[0];
  const bool transposed = conv->attr.ints2[1] != 0;
  const int64_t batch = conv->shape[0], c_out = conv->shape[1], c_in = x->shape[1];
  const int64_t cig = c_in / groups, cog = c_out / groups;
  std::vector<int64_t> ksize(w->shape.begin() + 2, w->shape.end()), isize(x->shape.begin() + 2, x->shape.end()),
      osize(conv->shape.begin() + 2, conv->shape.end());
  const bool use_dot = conv_uses_dot(conv);
  // A transposed conv with stride s > 1 along a dim, and a dilation coprime to it, is split by output phase
  // (o mod s): output o = i * s - pad + k * dil of phase ph reads the taps with k * dil = ph + pad (mod s) only,
  // k = k0 + s * j where k0 = (ph + pad) * dil^-1 mod s, so no step is spent on stride holes. (A dilation sharing a
  // factor with the stride leaves some phases without taps: not split.)
  // A dot conv keeps its last spatial dim whole: split, a phase's outputs along it are stride elements apart
  // and the output tile is stored in scattered 2-byte pieces, which cost more than the masked taps saved. A/B on
  // the H200 (docs/gpu-runs/2026-12-04-session11-ab-phase-last.jsonl, new/old): convt_1d_functional_dilated_fp16
  // 0.41, convt_1d_basic 0.51, convt_2d_stride2 0.53, convt_3d_stride2 0.67; convt_2d_outpad_dilation 1.47 and
  // four others 1.05-1.08 the other way; the depthwise convt_1d_bf16_depthwise 1.22 (outer products: still split).
  // Per dim: psize = positions of one phase (or all outputs), tsize = taps the loop visits, inv = dil^-1 mod s.
  std::vector<char> phased(nd, 0);
  std::vector<int64_t> inv(nd, 1);
  std::vector<int64_t> psize = osize, tsize = ksize;
  int64_t phases = 1;
  for (int d = 0; d < nd; ++d) {
    if (transposed && stride[d] > 1 && std::gcd(dil[d], stride[d]) == 1 && (d < nd - 1 || !use_dot)) {
      phased[d] = 1;
      while (inv[d] * dil[d] % stride[d] != 1) ++inv[d];
      psize[d] = (osize[d] + stride[d] - 1) / stride[d];
      tsize[d] = (ksize[d] + stride[d] - 1) / stride[d];
      phases *= stride[d];
    }
  }
  int64_t kvol = 1, s_out = 1;
  for (int d = 0; d < nd; ++d) kvol *= tsize[d], s_out *= psize[d];
  const int64_t positions = batch * s_out;
  const bool half = conv->dtype == DType::Float16 || conv->dtype == DType::BFloat16;

  int64_t block_co, block_p, block_k = 1;
  if (use_dot) {
    block_co = std::clamp<int64_t>(next_pow2(cog), 16, 128);
    block_p = std::clamp<int64_t>(next_pow2(positions), 16, 128);
    block_k = std::clamp<int64_t>(next_pow2(cig), 16, half ? 64 : 32);
  } else {
    block_co = next_pow2(cog);
    block_p = std::clamp<int64_t>(next_pow2(positions), 16, 1024 / block_co);
  }
  // When position tiles stay within one image, a tile's batch index is one scalar and its positions a contiguous
  // run: Triton sees the run and stores the output tile along it (a tile crossing images indexes positions by a
  // modulo, which hides the run: the accumulator was stored in its MMA layout, 2-byte stores spread over 8
  // channels each, and the dilated fp16 conv over 127 x 191 images ran 4.6x slower per FLOP than over 128 x 128).
  // Tiles are per image when they divide it, or when the last, partial tile of each wastes little (1/8 at most).
  // A conv split by phase indexes its rows (the outer spatial dims) through the phase, so no flat run exists: its
  // tiles are row tiles instead, ROWS rows x COLS contiguous columns of the last dim (COLS a power of two, padded
  // columns masked), which Triton sees as runs of COLS. Measured (ncu, H200): the grouped bf16 transposed conv over
  // 191-wide rows wrote each output element as its own 32-byte L2 sector, L2 at 83% of its throughput and DRAM 3%.
  const int64_t width = psize[nd - 1], rows = s_out / width;
  const bool row_tiles = phases > 1 && nd > 1 && !phased[nd - 1] && width > 1 && rows > 1;
  int64_t cols = std::min(block_p, next_pow2(width));
  // the widest run whose padding wastes at most 1/8 of the columns, down to 16
  while (row_tiles && cols > 16 && (width + cols - 1) / cols * cols * 8 > width * 9) cols /= 2;
  const int64_t tile_rows = block_p / cols, col_tiles = (width + cols - 1) / cols,
                row_tile_count = (rows + tile_rows - 1) / tile_rows;
  const bool image_tiles = !row_tiles && batch > 1 && (s_out % block_p == 0 || s_out >= 8 * block_p);
  const int64_t per_image = row_tiles ? row_tile_count * col_tiles : (s_out + block_p - 1) / block_p;
  const int64_t co_tiles = (cog + block_co - 1) / block_co,
                p_tiles = image_tiles || row_tiles ? batch * per_image : (positions + block_p - 1) / block_p;

  auto& body = job.kernel.body;
  ve.out = &body;
  std::string x_ptr = job.buffers.pointer(view_root(x));
  std::string w_ptr = job.buffers.pointer(view_root(w));
  std::vector<int64_t> sx = operand_strides(x, x->shape.size()), sw = operand_strides(w, w->shape.size());
  // Weight strides of the input channel and the output channel (the layouts differ when transposed).
  const int64_t sw_ci = transposed ? sw[0] : sw[1], sw_co = transposed ? sw[1] : sw[0];

  const TExpr* CIG = job.constexpr_param("C_IN_GROUP", cig);
  const TExpr* COG = job.constexpr_param("C_OUT_GROUP", cog);
  const TExpr* P = job.constexpr_param("P", positions);
  const TExpr* BCO = job.constexpr_param("BLOCK_CO", block_co);
  const TExpr* BP = job.constexpr_param("BLOCK_P", block_p);
  const TExpr* BK = use_dot ? job.constexpr_param("BLOCK_K", block_k) : nullptr;
  if (use_dot) {
    job.kernel.params.push_back({"PRECISION", ParamKind::Constexpr});
    job.launch.args.push_back({"PRECISION", half ? "\"ieee\"" : "conv_precision"});
  }
  auto assign = [&](std::vector<TStmt>& out, const std::string& name, const TExpr* v) {
    out.push_back(TileBuilder::assign(name, v));
    return b.var(name);
  };
  auto scaled = [&](const TExpr* idx, int64_t s) { return s == 1 ? idx : b.mul(idx, b.i(s)); };
  auto sum = [&](const TExpr* acc, const TExpr* term) { return acc ? b.add(acc, term) : term; };

  // Program -> (position tile, channel tile, phase; group); the channel tiles and output phases of one position
  // tile run side by side, so the input they share is read from L2, and the phases' interleaved outputs meet in
  // L2 before they are written back (in separate waves each would write half-filled sectors).
  const TExpr* phase = nullptr;
  const TExpr* pid = nullptr;
  if (phases > 1) {
    phase = assign(body, "phase", b.op(TOp::Mod, {b.program_id(0), b.i(phases)}));
    pid = assign(body, "pid", b.op(TOp::FloorDiv, {b.program_id(0), b.i(phases)}));
  } else {
    pid = assign(body, "pid", b.program_id(0));
  }
  const TExpr* pid_p = pid;
  const TExpr* pid_co = b.i(0);
  if (co_tiles > 1) {
    pid_p = assign(body, "pid_p", b.op(TOp::FloorDiv, {pid, b.i(co_tiles)}));
    pid_co = assign(body, "pid_co", b.op(TOp::Mod, {pid, b.i(co_tiles)}));
  }
  const TExpr* grp = groups > 1 ? assign(body, "grp", b.program_id(1)) : nullptr;
  // Output phase of the phased dims: first tap k0 and the input offset `base` of the phase's first output.
  std::vector<const TExpr*> ph(nd, nullptr), k0(nd, nullptr), base(nd, nullptr);
  if (phases > 1) {
    int64_t pinner = 1;
    for (int d = nd - 1; d >= 0; --d) {
      if (!phased[d]) continue;
      std::string sd = std::to_string(d);
      const TExpr* e = phase;
      if (pinner > 1) e = b.op(TOp::FloorDiv, {e, b.i(pinner)});
      if (pinner * stride[d] < phases) e = b.op(TOp::Mod, {e, b.i(stride[d])});
      ph[d] = assign(body, "ph" + sd, e);
      // base = (ph + pad - k0 * dil) / s, exact (the input index of the phase's first output at tap k0)
      const TExpr* shifted = pad[d] ? b.add(ph[d], b.i(pad[d])) : ph[d];
      k0[d] = assign(body, "kfirst" + sd, b.op(TOp::Mod, {scaled(shifted, inv[d]), b.i(stride[d])}));
      base[d] = assign(body, "base" + sd,
                       b.op(TOp::FloorDiv, {b.op(TOp::Sub, {shifted, scaled(k0[d], dil[d])}), b.i(stride[d])}));
      pinner *= stride[d];
    }
  }
  body.push_back(TileBuilder::comment("rc: output channels (within the group), rp: output positions (batch, spatial)"));
  const TExpr* rc = assign(body, "rc", co_tiles > 1 ? b.add(b.mul(pid_co, BCO), b.arange(BCO)) : b.arange(BCO));
  // Image tiles (see image_tiles above): sp, the tile's positions in its image; sl, those the loads read (sp
  // wrapped around in an image's partial last tile, whose extra positions are masked at the store only).
  const TExpr* rp = nullptr;
  const TExpr* sl = nullptr;
  const TExpr* nb = nullptr;
  const TExpr* sp = nullptr;
  const TExpr* cw = nullptr;
  const TExpr* prow = nullptr;  // row tiles: the tile's rows and columns, unwrapped (the store's)
  const TExpr* pcol = nullptr;
  const TExpr* row_l = nullptr;  // and those the loads read (wrapped around in a partial tile)
  const TExpr* col_l = nullptr;
  const bool partial_image = image_tiles && s_out % block_p != 0;
  const bool scalar_image = image_tiles || row_tiles;  // a tile's positions lie in one image (nb a scalar)
  if (row_tiles) {
    if (batch > 1) nb = assign(body, "nb", per_image > 1 ? b.op(TOp::FloorDiv, {pid_p, b.i(per_image)}) : pid_p);
    const TExpr* tile = batch > 1 && per_image > 1 ? b.op(TOp::Mod, {pid_p, b.i(per_image)}) : pid_p;
    if (col_tiles > 1) tile = assign(body, "tile", tile);
    const TExpr* rt = col_tiles > 1 ? b.op(TOp::FloorDiv, {tile, b.i(col_tiles)}) : tile;
    const TExpr* ct = col_tiles > 1 ? b.op(TOp::Mod, {tile, b.i(col_tiles)}) : nullptr;
    const TExpr* lane_row = b.op(TOp::FloorDiv, {b.arange(BP), b.i(cols)});
    const TExpr* lane_col = b.op(TOp::Mod, {b.arange(BP), b.i(cols)});
    prow = assign(body, "prow", row_tile_count > 1 ? b.add(b.mul(rt, b.i(tile_rows)), lane_row) : lane_row);
    pcol = assign(body, "pcol", ct ? b.add(b.mul(ct, b.i(cols)), lane_col) : lane_col);
    row_l = rows % tile_rows ? assign(body, "prow_l", b.op(TOp::Mod, {prow, b.i(rows)})) : prow;
    col_l = width % cols ? assign(body, "pcol_l", b.op(TOp::Mod, {pcol, b.i(width)})) : pcol;
    sp = pcol;  // a BLOCK_P vector the position axis is anchored on
  } else if (image_tiles) {
    nb = assign(body, "nb", per_image > 1 ? b.op(TOp::FloorDiv, {pid_p, b.i(per_image)}) : pid_p);
    const TExpr* tile = per_image > 1 ? b.op(TOp::Mod, {pid_p, b.i(per_image)}) : b.i(0);
    sp = assign(body, "sp", per_image > 1 ? b.add(b.mul(tile, BP), b.arange(BP)) : b.arange(BP));
    sl = partial_image ? assign(body, "sl", b.op(TOp::Mod, {sp, b.i(s_out)})) : sp;
  } else {
    rp = assign(body, "rp", b.add(b.mul(pid_p, BP), b.arange(BP)));
  }
  // Out-of-range rows and columns wrap around instead of masking every load; the store is masked.
  cw = cog % block_co ? assign(body, "cw", b.op(TOp::Mod, {rc, COG})) : rc;
  const TExpr* pw = rp && positions % block_p ? assign(body, "pw", b.op(TOp::Mod, {rp, P})) : rp;
  if (!scalar_image) {
    sp = pw;
    if (batch > 1 && s_out > 1) {
      nb = assign(body, "nb", b.op(TOp::FloorDiv, {pw, b.i(s_out)}));
      sp = assign(body, "sp", b.op(TOp::Mod, {pw, b.i(s_out)}));
    } else if (batch > 1) {
      nb = pw;
    }
    sl = sp;
  }
  std::vector<const TExpr*> o(nd, nullptr), q(nd, nullptr);
  int64_t inner = 1;
  for (int d = nd - 1; d >= 0; --d) {
    const TExpr* e = sl;
    if (row_tiles) {
      // the last dim is the tile's column; the outer dims split its row
      e = d == nd - 1 ? col_l : row_l;
      const int64_t row_inner = inner / width;
      if (d < nd - 1 && row_inner > 1) e = b.op(TOp::FloorDiv, {e, b.i(row_inner)});
      if (d > 0 && d < nd - 1) e = b.op(TOp::Mod, {e, b.i(psize[d])});
    } else {
      if (inner > 1) e = b.op(TOp::FloorDiv, {e, b.i(inner)});
      if (d > 0) e = b.op(TOp::Mod, {e, b.i(psize[d])});
    }
    std::string sd = std::to_string(d);
    if (phased[d]) {
      // (one position per phase: still a BLOCK_P vector, all 0, so that the store spans the tile's positions)
      q[d] = psize[d] == 1 ? b.mul(sl, b.i(0)) : assign(body, "q" + sd, e);
      o[d] = assign(body, "o" + sd, b.add(scaled(q[d], stride[d]), ph[d]));
    } else {
      o[d] = osize[d] == 1 ? b.i(0) : assign(body, "o" + sd, e);
    }
    inner *= psize[d];
  }

  const TExpr* x_base = operand_base(b, x_ptr, x);
  if (nb && sx[0]) x_base = b.add(x_base, scaled(nb, sx[0]));
  if (grp) x_base = b.add(x_base, b.mul(grp, b.i(cig * sx[1])));
  x_base = assign(body, "x_base", x_base);
  const TExpr* w_base = operand_base(b, w_ptr, w);
  if (grp) w_base = b.add(w_base, b.mul(grp, b.i(transposed ? cig * sw_ci : cog * sw_co)));
  w_base = assign(body, "w_base", b.add(w_base, scaled(cw, sw_co)));
  if (use_dot) assign(body, "rk", b.arange(BK));
  body.push_back(TileBuilder::assign("acc", b.zeros("[BLOCK_CO, BLOCK_P]", DType::Float32)));

  // One loop over (kernel position r, channel chunk c), r outer, so that Triton pipelines the loads across
  // the whole reduction. Each step: the input position every output reads at r, whether it exists (padding,
  // stride holes), then one chunk of the group's input channels.
  const int64_t chunks = use_dot ? (cig + block_k - 1) / block_k : cig;
  const int64_t iters = kvol * chunks;
  std::vector<TStmt> kbody;
  const TExpr* kk = iters > 1 ? b.var("kk") : nullptr;
  const TExpr* r_var = nullptr;
  const TExpr* chunk = nullptr;
  if (kvol > 1) r_var = chunks > 1 ? assign(kbody, "r", b.op(TOp::FloorDiv, {kk, b.i(chunks)})) : kk;
  if (chunks > 1) {
    const TExpr* c = kvol > 1 ? b.op(TOp::Mod, {kk, b.i(chunks)}) : kk;
    chunk = use_dot ? assign(kbody, "c0", b.mul(c, BK)) : assign(kbody, "ci", c);
  }
  std::vector<const TExpr*> k(nd, nullptr), j(nd, nullptr);
  int64_t kinner = 1;
  for (int d = nd - 1; d >= 0; --d) {
    if (tsize[d] > 1) {
      const TExpr* e = r_var;
      if (kinner > 1) e = b.op(TOp::FloorDiv, {e, b.i(kinner)});
      if (kinner * tsize[d] < kvol) e = b.op(TOp::Mod, {e, b.i(tsize[d])});
      (phased[d] ? j : k)[d] = assign(kbody, (phased[d] ? "j" : "k") + std::to_string(d), e);
    }
    kinner *= tsize[d];
  }
  const TExpr* valid = nullptr;
  const TExpr* x_off = nullptr;
  const TExpr* w_off = nullptr;
  // whether the input pointers vary along the tile's positions
  bool x_spans = nb && sx[0] && !scalar_image;
  for (int d = 0; d < nd; ++d) {
    std::string sd = std::to_string(d);
    const TExpr* kd = k[d] ? scaled(k[d], dil[d]) : nullptr;
    const TExpr* id = nullptr;
    if (phased[d]) {
      // tap k = k0 + stride * j reads input q + base - j * dil; taps past the kernel's end read zeros (and a
      // clamped, in-bounds weight)
      const TExpr* kj = j[d] ? b.add(k0[d], scaled(j[d], stride[d])) : k0[d];
      k[d] = assign(kbody, "k" + sd, kj);
      if (ksize[d] % stride[d]) {
        valid = b.band(valid, b.lt(k[d], b.i(ksize[d])));
        k[d] = assign(kbody, "kc" + sd, b.op(TOp::Minimum, {k[d], b.i(ksize[d] - 1)}));
      }
      const TExpr* e = b.add(q[d], base[d]);
      if (j[d]) e = b.op(TOp::Sub, {e, scaled(j[d], dil[d])});
      id = assign(kbody, "i" + sd, e);
      valid = b.band(valid, b.op(TOp::Ge, {id, b.i(0)}));
      valid = b.band(valid, b.lt(id, b.i(isize[d])));
    } else if (!transposed) {
      // in = out * stride - padding + k * dilation
      const TExpr* e = scaled(o[d], stride[d]);
      if (pad[d]) e = b.op(TOp::Sub, {e, b.i(pad[d])});
      if (kd) e = b.add(e, kd);
      id = osize[d] == 1 && !kd && !pad[d] ? nullptr : assign(kbody, "i" + sd, e);
      if (id) {
        if (pad[d]) valid = b.band(valid, b.op(TOp::Ge, {id, b.i(0)}));
        if ((osize[d] - 1) * stride[d] - pad[d] + (ksize[d] - 1) * dil[d] >= isize[d]) {
          valid = b.band(valid, b.lt(id, b.i(isize[d])));
        }
      }
    } else {
      // out = in * stride - padding + k * dilation: in = t / stride where t = out + padding - k * dilation
      // is a non-negative multiple of the stride
      const TExpr* t = o[d];
      if (pad[d]) t = b.add(t, b.i(pad[d]));
      if (kd) t = b.op(TOp::Sub, {t, kd});
      t = assign(kbody, "t" + sd, t);
      valid = b.band(valid, b.op(TOp::Ge, {t, b.i(0)}));
      if (stride[d] > 1) {
        valid = b.band(valid, b.op(TOp::Eq, {b.op(TOp::Mod, {t, b.i(stride[d])}), b.i(0)}));
        id = assign(kbody, "i" + sd, b.op(TOp::FloorDiv, {t, b.i(stride[d])}));
      } else {
        id = t;
      }
      valid = b.band(valid, b.lt(id, b.i(isize[d])));
    }
    if (id && sx[d + 2]) x_off = sum(x_off, scaled(id, sx[d + 2]));
    if (id && sx[d + 2] && (phased[d] || osize[d] > 1)) x_spans = true;
    if (k[d] && sw[d + 2]) w_off = sum(w_off, scaled(k[d], sw[d + 2]));
  }
  // A 1x1 conv with stride 1 and no padding reads the input at the output's own flat spatial index.
  bool dense = !transposed && kvol == 1 && sp != nullptr;
  int64_t run = 1;
  for (int d = nd - 1; d >= 0; --d) {
    dense = dense && stride[d] == 1 && pad[d] == 0 && isize[d] == osize[d] && (isize[d] == 1 || sx[d + 2] == run);
    run *= isize[d];
  }
  if (dense) x_off = sl;
  // A single output position, or an input broadcast along every position (strides 0: an expanded scalar), leaves
  // every input index a scalar: the input tile still spans BLOCK_P positions (the dot and the outer product need
  // its shape, Triton a block pointer under a block mask), all reading that one.
  if (!dense && !x_spans) x_off = sum(x_off, b.mul(rp ? rp : sp, b.i(0)));
  if (valid) valid = assign(kbody, "valid", valid);
  const TExpr* x_ptrs = assign(kbody, "x_ptrs", x_off ? b.add(b.var("x_base"), x_off) : b.var("x_base"));
  const TExpr* w_ptrs = assign(kbody, "w_ptrs", w_off ? b.add(b.var("w_base"), w_off) : b.var("w_base"));

  std::vector<TStmt>& cbody = kbody;
  if (use_dot) {
    const TExpr* ck = chunk ? assign(cbody, "ck", b.add(chunk, b.var("rk"))) : b.var("rk");
    const TExpr* kmask_row = cig % block_k ? b.lt(b.expand(ck, "None, :"), CIG) : nullptr;
    const TExpr* kmask_col = cig % block_k ? b.lt(b.expand(ck, ":, None"), CIG) : nullptr;
    const TExpr* wt_ptr = b.add(b.expand(w_ptrs, ":, None"), scaled(b.expand(ck, "None, :"), sw_ci));
    const TExpr* xt_ptr = b.add(b.expand(x_ptrs, "None, :"), scaled(b.expand(ck, ":, None"), sx[1]));
    const TExpr* xmask = b.band(valid ? b.expand(valid, "None, :") : nullptr, kmask_col);
    assign(cbody, "wt", b.load(wt_ptr, kmask_row, kmask_row ? b.f(0.0) : nullptr));
    assign(cbody, "xt", b.load(xt_ptr, xmask, xmask ? b.f(0.0) : nullptr));
    assign(cbody, "acc", b.op(TOp::Dot, {b.var("wt"), b.var("xt"), b.var("acc"), b.var("PRECISION")}));
  } else {
    const TExpr* ci = chunk;
    const TExpr* wv_ptr = ci ? b.add(w_ptrs, scaled(ci, sw_ci)) : w_ptrs;
    const TExpr* xv_ptr = ci ? b.add(x_ptrs, scaled(ci, sx[1])) : x_ptrs;
    assign(cbody, "wv", b.cast(b.load(wv_ptr, nullptr, nullptr), DType::Float32));
    assign(cbody, "xv", b.cast(b.load(xv_ptr, valid, valid ? b.f(0.0) : nullptr), DType::Float32));
    assign(cbody, "acc",
           b.add(b.var("acc"), b.mul(b.expand(b.var("wv"), ":, None"), b.expand(b.var("xv"), "None, :"))));
  }
  if (iters > 1) {
    TStmt l = loop("kk", b.i(0), job.constexpr_param("K_ITERS", iters), b.i(1));
    l.body = std::move(kbody);
    body.push_back(std::move(l));
  } else {
    for (auto& s : kbody) body.push_back(std::move(s));
  }

  // Epilogue over the accumulator tile: channels along axis 0, positions along axis 1.
  // The spatial dims merge into one (indexed by sp) when every access of the epilogue walks them densely.
  int last_spatial = -1;
  for (int d = 2; d < rank; ++d) {
    if (conv->shape[d] > 1) last_spatial = d;
  }
  bool merged = false;
  if (phases == 1 && last_spatial >= 0 && sp) {
    for (auto* out : g.outputs) {
      ve.collect(out, group_map(g, out));
      ve.collect_store(out, group_map(g, out));
    }
    ve.merge_dims([](int d) { return d >= 2; });
    merged = true;
    for (int d = 2; d < rank; ++d) merged = merged && (conv->shape[d] == 1 || ve.rep()[d] == last_spatial);
  }
  if (!merged) ve.merge_dims([](int) { return false; });
  const TExpr* co_full = grp ? b.add(b.mul(grp, COG), rc) : rc;
  ve.index[0] = !nb ? b.i(0) : scalar_image ? nb : b.expand(nb, "None, :");
  ve.index[1] = b.expand(co_full, ":, None");
  ve.axis_of[0] = scalar_image ? -1 : 1;
  ve.axis_of[1] = 0;
  for (int d = 0; d < nd; ++d) {
    if (osize[d] > 1) ve.index[d + 2] = b.expand(o[d], "None, :");
    ve.axis_of[d + 2] = 1;
  }
  if (merged) ve.index[last_spatial] = b.expand(sp, "None, :");
  const TExpr* p_mask = partial_image                ? b.lt(b.expand(sp, "None, :"), b.i(s_out))
                        : rp && positions % block_p ? b.lt(b.expand(rp, "None, :"), P)
                                                     : nullptr;
  if (row_tiles) {
    // the store reads the unwrapped columns (Triton sees their run) and masks the padding
    ve.index[nd + 1] = b.expand(pcol, "None, :");
    if (rows % tile_rows) p_mask = b.band(p_mask, b.lt(b.expand(prow, "None, :"), b.i(rows)));
    if (width % cols) p_mask = b.band(p_mask, b.lt(b.expand(pcol, "None, :"), b.i(width)));
  }
  for (int d = 0; d < nd; ++d) {
    if (phased[d] && osize[d] % stride[d]) p_mask = b.band(p_mask, b.lt(b.expand(o[d], "None, :"), b.i(osize[d])));
  }
  ve.axis_mask = {cog % block_co == 0 ? nullptr : b.lt(b.expand(rc, ":, None"), COG), p_mask};
  // A single output position (or channel) is still a padded tile axis: the store spans it, masked.
  ve.axis_anchor = {block_co > 1 ? b.expand(rc, ":, None") : nullptr,
                    block_p > 1 ? b.expand(rp ? rp : sp, "None, :") : nullptr};
  ve.keep_in_cache(conv, group_map(g, conv), b.var("acc"));
  for (auto* out : g.outputs) ve.store(out, group_map(g, out), ve.value(out, group_map(g, out)));

  job.launch.grid = {std::to_string(p_tiles * co_tiles * phases)};
  if (groups > 1) job.launch.grid.push_back(std::to_string(groups));
  job.launch.num_warps = block_co * block_p >= 128 * 128 ? 8 : 4;
  // Measured on the H200 (Triton 3.6, docs/NUMERICS.md): a bf16 conv whose input gather is strided (stride 2)
  // came out wrong with 3 pipeline stages and right with 1 or 2 (its gathers were 2-byte loads then; now the
  // input is channels-last, passes/conv_layout.cpp); 16-bit strided convs keep 2.
  bool strided_half = false;
  for (int d = 0; d < nd; ++d) strided_half = strided_half || (half && !transposed && stride[d] > 1);
  if (use_dot) job.launch.num_stages = strided_half ? 2 : 3;
}

}  // namespace tz
