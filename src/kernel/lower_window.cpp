// Window (pooling) kernels: a tile of BLOCK outputs over the flat output space, so that neighbouring lanes own
// neighbouring outputs of the contiguous last dim and their loads are coalesced (a stride apart). Each program
// loops over the static window offsets, innermost dims unrolled, loading the input with a mask for padding and
// bounds (max pads with -inf and lets NaN through as PyTorch does, avg pads with 0) and accumulating in float32.
// Windows along a contiguous last dim that tile it (kernel = stride = 2, 4, 8) or are long (16 or more) put
// that dim's offsets on a second tile axis instead ([BLOCK, LANES]), reduced at the end. The kept (batch,
// channel) dims merge when the input's strides allow and give one base offset per output; pointwise consumers
// of the pooled value run after the loop, before the store. An input contiguous along another dim than the last
// pooled one (a channels-last input pooled as NCHW, a transposed plane) gets a 2-D [BLOCK_T, BLOCK_I] tile over
// that run and the output's innermost run instead, so that the window loads are coalesced along it and the stores
// along the output rows.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "graph/view.h"
#include "kernel/lower_kinds.h"

namespace tz {

namespace {

// One pooled dim: output o reads positions start(o) + k * dilation, k < kernel, of an input dim of `size`.
struct WindowDim {
  int64_t size = 1, out = 1;
  int64_t kernel = 1, stride = 1, pad = 0, dilation = 1;
  bool adaptive = false;  // start = o * size // out, end = ceil((o + 1) * size / out); kernel = the largest window
  int64_t start(int64_t o) const { return adaptive ? o * size / out : o * stride - pad; }
  int64_t end(int64_t o) const {
    return adaptive ? ((o + 1) * size + out - 1) / out : start(o) + (kernel - 1) * dilation + 1;
  }
  // Adaptive windows of different sizes (each output's end is then computed, not start + kernel).
  bool varies() const {
    for (int64_t q = 0; q < out; ++q) {
      if (end(q) - start(q) != kernel) return true;
    }
    return false;
  }
  // The same start and end of an adaptive window, of the output index `o` (a tile or a scalar). o * size is
  // computed in int64 where it passes int32 (an adaptive_avg_pool1d of 66000 to 37054: from o = 32538 on, the
  // int32 product wrapped and the windows read garbage: random_modules version 3, seed 5027).
  bool wide() const { return (out + 1) * size + out > INT32_MAX; }
  const TExpr* start_of(TileBuilder& b, const TExpr* o) const {
    if (wide()) o = b.cast(o, DType::Int64);
    return b.op(TOp::FloorDiv, {b.mul(o, b.i(size)), b.i(out)});
  }
  const TExpr* end_of(TileBuilder& b, const TExpr* o) const {
    if (wide()) o = b.cast(o, DType::Int64);
    return b.op(TOp::FloorDiv, {b.add(b.mul(b.add(o, b.i(1)), b.i(size)), b.i(out - 1)), b.i(out)});
  }
};

// PyTorch's avg_pool divisor along one dim (a product over dims gives the window's), for output o.
int64_t avg_count(const WindowDim& w, int64_t o, bool include_pad) {
  if (w.adaptive) return w.end(o) - w.start(o);
  int64_t s = w.start(o), e = std::min(s + w.kernel, w.size + w.pad);
  return include_pad ? e - s : std::min(e, w.size) - std::max<int64_t>(s, 0);
}

const char* const kLetters[] = {"d", "h", "w"};

}  // namespace

void lower_window(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const Node* pool = g.nodes.front();
  TZ_ASSERT(op_kind(pool->op) == OpKind::Window, "a window kernel starts with its pooling node");
  const Node* src = pool->src[0];
  int rank = pool->rank(), dims = pooled_dims(pool), lead = rank - dims;
  bool adaptive = pool->op == Op::AdaptiveMaxPool || pool->op == Op::AdaptiveAvgPool;
  bool max = pool->op == Op::MaxPool || pool->op == Op::AdaptiveMaxPool;
  // A max pool with return_indices is two nodes of one op (the values, the argmax), computed by one kernel
  // (fuse joins them) from one read of the input; either may be the only one left.
  bool values = false, indices = false;
  for (const Node* n : g.nodes) {
    if (op_kind(n->op) == OpKind::Window) (n->attr.str == "indices" ? indices : values) = true;
  }

  std::vector<WindowDim> win(dims);
  int64_t window = 1;
  for (int j = 0; j < dims; ++j) {
    WindowDim& w = win[j];
    w.size = src->shape[lead + j];
    w.out = pool->shape[lead + j];
    if (adaptive) {
      w.adaptive = true;
      w.kernel = 0;
      for (int64_t o = 0; o < w.out; ++o) w.kernel = std::max(w.kernel, w.end(o) - w.start(o));
    } else {
      const int64_t* kspd = &pool->attr.ints[4 * j];
      w.kernel = kspd[0], w.stride = kspd[1], w.pad = kspd[2], w.dilation = kspd[3];
    }
    window *= w.kernel;
  }

  for (auto* o : g.outputs) {
    ve.collect(o, group_map(g, o));
    ve.collect_store(o, group_map(g, o));
  }
  ve.merge_dims([&](int d) {  // kept dims merge among themselves; each pooled dim keeps its own index
    int next = d + 1;
    while (next < rank && g.space[next] == 1) ++next;
    return next < lead;
  });

  // Windows along a contiguous last dim are read as a [BLOCK, LANES] tile, a window row per tile row, so that
  // a warp reads memory densely: non-overlapping windows (kernel = stride = 2, 4 or 8; each thread loads its row
  // as one vector) and long windows (16 or more, e.g. adaptive pools to a few outputs; LANES at most 128, in
  // chunks). The lanes are reduced at the end (the argmax per lane, then across lanes by PyTorch's order). Other
  // windows loop over every offset with a 1-D tile.
  std::vector<int64_t> src_strides;
  TZ_ASSERT(view_strides(src, src_strides), "a view that needs a copy reached a window kernel");
  const WindowDim& last = win[dims - 1];
  int64_t lanes = 1;
  if (last.dilation == 1 && src_strides[rank - 1] == 1 && last.out > 1) {
    bool tiling = !last.adaptive && last.stride == last.kernel;
    if (tiling && (last.kernel == 2 || last.kernel == 4 || last.kernel == 8)) lanes = last.kernel;
    else if (last.kernel >= 16) lanes = std::min<int64_t>(next_pow2(last.kernel), 128);
  }

  // Adaptive pools whose windows span many rows (a few outputs per plane): one program per output row (the
  // scalar kept and leading pooled indices; every output along the last dim) reads whole input rows, contiguous,
  // as a [BLOCK_H, BLOCK_W] tile of BLOCK_H window rows by the full input row; accumulates them elementwise over
  // the window's leading offsets, reduces the tile's rows, then each output's window along the row as a segment
  // of that row ([OW_P2, BLOCK_W]: every output's columns by mask; adaptive windows may overlap). Every input
  // element is read once, coalesced: the per-output tiles above read a window row per tile row, 32 windows per
  // load instruction and few programs when the outputs are few (pool_adaptive_avg_max3d: 420 programs, 0.16 of
  // the floor; pool_adaptive_max2d_indices: 0.19). The segment reduce costs about OW passes over one row, so
  // the form needs at least 4 * OW window rows per output row (AdaptiveMaxPool2d((None, 6)) with one stays in
  // lanes) and a row held whole (BLOCK_W <= 2048).
  int64_t lead_rows = 1;
  for (int j = 0; j + 1 < dims; ++j) lead_rows *= win[j].kernel;
  int64_t row_block = next_pow2(last.size);
  bool rows_form = adaptive && dims >= 2 && src_strides[rank - 1] == 1 && last.out > 1 &&
                   ve.rep()[rank - 1] == rank - 1 && lead_rows >= 8 && lead_rows >= 4 * last.out &&
                   row_block <= 2048;
  int64_t block_h = 1;
  if (rows_form) {
    lanes = 1;
    block_h = std::min(next_pow2(win[dims - 2].kernel), std::max<int64_t>(1, 4096 / row_block));
  }

  // An input contiguous along another dim than the last pooled one: a kept dim (a channels-last input pooled as
  // NCHW) or a pooled one (x.transpose(2, 3) pooled in 2-D). A 1-D tile would walk either the loads or the stores
  // with a stride. A 2-D [BLOCK_T, BLOCK_I] tile over that run and the innermost output run keeps both coalesced
  // (loads along axis 0, stores along axis 1; Triton converts between the two layouts through shared memory), as
  // pointwise transposes do. Along a pooled dim the loads step by its stride: a warp's tap load of
  // pool_max2d_dilated_ceil_transposed (stride 2, fp32) spans 256 bytes, where the flat tile's lanes walked the
  // output's last dim, 1530 floats apart in memory, and each lane read its own 32-byte sector (32 a load).
  int innermost = -1;
  for (int d = 0; d < rank; ++d) {
    if (ve.rep()[d] == d) innermost = d;
  }
  int across = -1;
  if (!rows_form && src_strides[rank - 1] != 1 && innermost >= lead && ve.run_size(innermost) >= 16) {
    for (int d = rank - 2; d >= 0 && across < 0; --d) {
      if (d != innermost && ve.rep()[d] == d && src_strides[d] == 1 && ve.run_size(d) >= 16) across = d;
    }
  }

  int64_t n = numel(g.space);
  auto& body = job.kernel.body;
  ve.out = &body;
  std::string tile;
  int64_t tile_size = 0, programs = 0;
  int num_warps = 4;
  bool wide = false;
  // The program id, int64 when offsets may pass int32 (within `margin` elements of it): then every index is.
  auto program_id = [&](int64_t margin) {
    int64_t limit = (int64_t{1} << 31) - margin;
    wide = n >= limit || numel(view_root(src)->shape) >= limit;
    const TExpr* pid = b.program_id(0);
    return wide ? b.cast(pid, DType::Int64) : pid;
  };
  // The scalar index of each representative dim from `from` down (but `skip1`, `skip2`), split from `id` (which
  // counts `count` values, the innermost dim fastest); named o<letter> for pooled dims, i<d> for kept ones.
  auto scalar_indices = [&](const TExpr* id, int64_t count, int from, int skip1, int skip2) {
    int64_t inner = 1;
    for (int d = from; d >= 0; --d) {
      if (ve.rep()[d] != d || d == skip1 || d == skip2) continue;
      int64_t size = ve.run_size(d);
      const TExpr* idx = inner == 1 ? id : b.op(TOp::FloorDiv, {id, b.i(inner)});
      if (inner * size < count) idx = b.op(TOp::Mod, {idx, b.i(size)});
      if (idx->op != TOp::Var) {
        std::string name = d >= lead ? "o" + std::string(kLetters[3 - dims + d - lead]) : "i" + std::to_string(d);
        body.push_back(TileBuilder::assign(name, idx));
        idx = b.var(name);
      }
      ve.index[d] = idx;
      ve.axis_of[d] = -1;
      inner *= size;
    }
  };
  const TExpr* offs = nullptr;
  const TExpr* out_mask = nullptr;
  int outermost = -1;
  if (rows_form) {
    // pid = output row (kept dims and leading pooled outputs, innermost fastest); the row's outputs on axis 0.
    int64_t ow_block = next_pow2(last.out);
    tile = "[BLOCK_H, BLOCK_W]";
    tile_size = block_h * row_block;
    num_warps = tile_size >= 4096 ? 8 : 4;
    programs = n / last.out;
    job.constexpr_param("BLOCK_H", block_h);
    job.constexpr_param("BLOCK_W", row_block);
    const TExpr* ow_param = job.constexpr_param("BLOCK_O", ow_block);
    const TExpr* pid = program_id(tile_size);
    body.push_back(TileBuilder::assign("pid", pid));
    pid = b.var("pid");
    std::string o_name = "o" + std::string(kLetters[2]);
    body.push_back(TileBuilder::assign(o_name, b.expand(b.arange(ow_param), ":, None")));
    const TExpr* ro = b.var(o_name);
    ve.index[rank - 1] = ro;
    ve.axis_of[rank - 1] = 0;
    ve.axis_mask = {ow_block != last.out ? b.lt(ro, b.i(last.out)) : nullptr};
    out_mask = ve.axis_mask[0];
    scalar_indices(pid, programs, rank - 2, -1, -1);
    ve.store_anchor = ro;
  } else if (across >= 0) {
    int64_t st = ve.run_size(across), si = ve.run_size(innermost);
    int64_t bt = std::min<int64_t>(64, next_pow2(st));
    if (bt == 64 && (st + 31) / 32 * 32 < (st + 63) / 64 * 64) bt = 32;  // fewer idle rows (200 channels: 7 x 32)
    int64_t bi = std::min<int64_t>(window <= 16 ? 64 : 32, next_pow2(si));
    int64_t nt = (st + bt - 1) / bt, ni = (si + bi - 1) / bi, rest = n / (st * si);
    tile = "[BLOCK_T, BLOCK_I]";
    tile_size = bt * bi;
    num_warps = tile_size >= 4096 ? 8 : 4;
    programs = nt * ni * rest;
    const TExpr* bt_param = job.constexpr_param("BLOCK_T", bt);
    const TExpr* bi_param = job.constexpr_param("BLOCK_I", bi);
    const TExpr* pid = program_id(tile_size);
    body.push_back(TileBuilder::assign("pid", pid));
    pid = b.var("pid");
    // The tile's place along each run: pid = (rest * nt + tile_t) * ni + tile_i.
    const TExpr* tile_t = ni == 1 ? pid : b.op(TOp::FloorDiv, {pid, b.i(ni)});
    if (rest > 1) tile_t = b.op(TOp::Mod, {tile_t, b.i(nt)});
    const TExpr* ti = nt == 1 ? b.arange(bt_param) : b.add(b.mul(tile_t, bt_param), b.arange(bt_param));
    const TExpr* ii =
        ni == 1 ? b.arange(bi_param) : b.add(b.mul(b.op(TOp::Mod, {pid, b.i(ni)}), bi_param), b.arange(bi_param));
    std::string t_name = across >= lead ? "o" + std::string(kLetters[3 - dims + across - lead])
                                        : "i" + std::to_string(across);
    std::string i_name = "o" + std::string(kLetters[3 - dims + innermost - lead]);
    body.push_back(TileBuilder::assign(t_name, b.expand(ti, ":, None")));
    body.push_back(TileBuilder::assign(i_name, b.expand(ii, "None, :")));
    const TExpr* rt = b.var(t_name);
    const TExpr* ri = b.var(i_name);
    ve.index[across] = rt;
    ve.axis_of[across] = 0;
    ve.index[innermost] = ri;
    ve.axis_of[innermost] = 1;
    ve.axis_mask = {st % bt ? b.lt(rt, b.i(st)) : nullptr, si % bi ? b.lt(ri, b.i(si)) : nullptr};
    out_mask = b.band(ve.axis_mask[0], ve.axis_mask[1]);
    // The other runs (scalars per program) from the rest of the program id, innermost first.
    int split = 0;
    for (int d = 0; d < rank; ++d) split += ve.rep()[d] == d && d != across && d != innermost;
    const TExpr* rest_id = rest == 1 ? nullptr : nt * ni == 1 ? pid : b.op(TOp::FloorDiv, {pid, b.i(nt * ni)});
    if (split > 1 && rest_id != pid) {
      body.push_back(TileBuilder::assign("rest", rest_id));
      rest_id = b.var("rest");
    }
    scalar_indices(rest_id, rest, rank - 1, across, innermost);
    ve.store_anchor = b.add(rt, ri);
  } else {
    // The flat output tile and each representative dim's index, as in pointwise kernels ([BLOCK, 1] with lanes).
    int64_t block = window <= 4 ? 1024 : window <= 16 ? 512 : 256;
    if (lanes > 1) block = std::min<int64_t>(block, std::max<int64_t>(16, 2048 / lanes));
    block = std::min<int64_t>(block, std::max<int64_t>(16, next_pow2(n)));
    tile = lanes > 1 ? "[BLOCK, " + std::to_string(lanes) + "]" : "[BLOCK]";
    tile_size = block * lanes;
    // Windows of more than 4 values: 2 outputs per thread. With 4 (a 256 block on 2 warps), a thread's unrolled
    // window loads in flight cost occupancy: MaxPool3d(3, 2, 1) over [16, 32, 96, 96, 97] fp32 took 1.64 ms,
    // against 0.92 ms on 4 warps (H200, tests/gpu/pool_experiment.py).
    num_warps = static_cast<int>(std::clamp<int64_t>(tile_size / (window > 4 ? 64 : 128), 1, window > 4 ? 8 : 4));
    programs = (n + block - 1) / block;
    const TExpr* n_param = job.constexpr_param("N", n);
    const TExpr* block_param = job.constexpr_param("BLOCK", block);
    const TExpr* pid = program_id(block);
    const TExpr* rows = b.arange(block_param);
    if (lanes > 1) rows = b.expand(rows, ":, None");
    body.push_back(TileBuilder::assign("offs", b.add(b.mul(pid, block_param), rows)));
    offs = b.var("offs");
    // (A single output needs no mask: every lane computes it, from the same loads, and stores the same value.)
    out_mask = n % block == 0 || n == 1 ? nullptr : b.lt(offs, n_param);
    if (out_mask) {
      body.push_back(TileBuilder::assign("mask", out_mask));
      out_mask = b.var("mask");
    }
    ve.axis_mask = {out_mask};
    // Lanes walk the output's dims innermost first, except when the input is not contiguous along the last
    // pooled dim but is along a kept one whose run is too short for a 2-D tile: then that kept dim is the
    // fastest, so that loads are coalesced (the stores, a fraction of the traffic, are strided instead).
    std::vector<int> order;  // representative dims, fastest first
    for (int d = rank - 1; d >= 0; --d) {
      if (ve.rep()[d] == d) order.push_back(d);
    }
    if (src_strides[rank - 1] != 1) {
      for (size_t i = 0; i < order.size(); ++i) {
        if (order[i] < lead && src_strides[order[i]] == 1) {
          auto at = order.begin() + static_cast<std::ptrdiff_t>(i);
          std::rotate(order.begin(), at, at + 1);
          break;
        }
      }
    }
    bool natural = std::is_sorted(order.rbegin(), order.rend());
    ve.flat_index = natural ? offs : nullptr;  // the flat index is the output's offset only in the natural order
    int64_t inner = 1;
    outermost = order.empty() ? -1 : order.back();
    for (int d : order) {
      int64_t size = ve.run_size(d);
      const TExpr* idx = offs;
      if (inner != 1) idx = b.op(TOp::FloorDiv, {idx, b.i(inner)});
      if (d != outermost) idx = b.op(TOp::Mod, {idx, b.i(size)});
      if (idx != offs) {
        std::string name = d >= lead ? "o" + std::string(kLetters[3 - dims + d - lead]) : "i" + std::to_string(d);
        body.push_back(TileBuilder::assign(name, idx));
        idx = b.var(name);
      }
      ve.index[d] = idx;
      ve.axis_of[d] = 0;
      inner *= size;
    }
    if (outermost < 0) ve.store_anchor = offs;
  }

  // avg: PyTorch's divisor, constant where every window has the same one (start and end: each dim's window
  // start, and its end where windows vary).
  auto divide = [&](const TExpr* acc_v, const std::vector<const TExpr*>& start,
                    const std::vector<const TExpr*>& end) -> const TExpr* {
    DType f32 = DType::Float32;
    bool include_pad = pool->attr.floats.empty() || pool->attr.floats[0] != 0;
    int64_t divisor_override = pool->attr.floats.size() > 1 ? static_cast<int64_t>(pool->attr.floats[1]) : 0;
    if (divisor_override != 0) return b.op(TOp::Div, {acc_v, b.f(static_cast<double>(divisor_override))});
    int64_t constant = 1;
    const TExpr* count = nullptr;
    for (int j = 0; j < dims; ++j) {
      const WindowDim& w = win[j];
      bool same = true;
      for (int64_t q = 1; q < w.out; ++q) same = same && avg_count(w, q, include_pad) == avg_count(w, 0, include_pad);
      if (same) {
        constant *= avg_count(w, 0, include_pad);
        continue;
      }
      const TExpr* c;
      if (w.adaptive) {
        c = b.op(TOp::Sub, {end[j], start[j]});
      } else if (include_pad) {
        c = b.op(TOp::Sub, {b.op(TOp::Minimum, {b.add(start[j], b.i(w.kernel)), b.i(w.size + w.pad)}), start[j]});
      } else {
        c = b.op(TOp::Sub, {b.op(TOp::Minimum, {b.add(start[j], b.i(w.kernel)), b.i(w.size)}),
                            b.op(TOp::Maximum, {start[j], b.i(0)})});
      }
      std::string name = std::string("count_") + kLetters[3 - dims + j];
      body.push_back(TileBuilder::assign(name, c));
      count = count ? b.mul(count, b.var(name)) : b.var(name);
    }
    if (!count) return b.op(TOp::Div, {acc_v, b.f(static_cast<double>(constant))});
    if (constant != 1) count = b.mul(count, b.i(constant));
    return b.op(TOp::Div, {acc_v, b.cast(count, f32)});
  };

  // The window loop is emitted once, for whichever output asks first: it computes the values (returned) and,
  // with `indices`, the argmax (into `argmax`).
  const TExpr* argmax = nullptr;
  // A max without indices: tl.maximum(acc, v, propagate_nan=ALL), the same values as PyTorch's rule (the largest,
  // NaN if any) in one max.NaN instruction instead of a compare, a NaN test and a select (PTX for sm_90a:
  // pool_max2d_same_bf16's flat tile 99.5 -> 70 instructions an output; tests/gpu/pools_experiment.py).
  auto nan_max = [&](const TExpr* a, const TExpr* v) { return b.op(TOp::NanMaximum, {a, v}); };
  // The row form (see rows_form): loops over the leading pooled dims' window offsets but the one before the last,
  // whose window rows are the tile's axis 0 (in chunks of BLOCK_H), the input row on axis 1.
  auto emit_rows = [&]() -> const TExpr* {
    const std::vector<int64_t>& st = src_strides;
    DType f32 = DType::Float32;
    DType itype = wide ? DType::Int64 : DType::Int32;
    const TExpr* x_ptr = operand_base(b, job.buffers.pointer(view_root(src)), src);
    const TExpr* off = nullptr;  // the output row's kept dims, by the input's strides
    for (int d = 0; d < lead; ++d) {
      if (ve.rep()[d] != d || st[d] == 0) continue;
      const TExpr* term = st[d] == 1 ? ve.index[d] : b.mul(ve.index[d], b.i(st[d]));
      off = off ? b.add(off, term) : term;
    }
    if (off && off->op != TOp::Var) {
      body.push_back(TileBuilder::assign("base", off));
      off = b.var("base");
    }
    // Each pooled dim's window start and end: scalars for the leading dims, [BLOCK_O, 1] for the last.
    std::vector<const TExpr*> start(dims), end(dims);
    for (int j = 0; j < dims; ++j) {
      const WindowDim& w = win[j];
      std::string l = kLetters[3 - dims + j];
      const TExpr* o = ve.rep()[lead + j] == lead + j ? ve.index[lead + j] : nullptr;
      if (!o) {
        start[j] = b.i(w.start(0));
        end[j] = b.i(w.end(0));
        continue;
      }
      body.push_back(TileBuilder::assign(l + "_start", w.start_of(b, o)));
      body.push_back(TileBuilder::assign(l + "_end", w.end_of(b, o)));
      start[j] = b.var(l + "_start");
      end[j] = b.var(l + "_end");
    }
    double pad_value = max ? -std::numeric_limits<double>::infinity() : 0.0;
    const char* acc = "acc";
    const TExpr* acc_v = b.var(acc);
    body.push_back(TileBuilder::assign(acc, max ? b.full(tile, b.f(pad_value), f32) : b.zeros(tile, f32)));
    body.push_back(TileBuilder::assign("w_in", b.expand(b.arange(b.var("BLOCK_W")), "None, :")));
    body.push_back(TileBuilder::assign("kh", b.expand(b.arange(b.var("BLOCK_H")), ":, None")));
    const TExpr* w_in = b.var("w_in");
    // Flat index of a position in the pooled plane from its per-dim positions (row-major).
    auto flat = [&](const std::vector<const TExpr*>& pos) {
      const TExpr* f = pos[0];
      for (int j = 1; j < dims; ++j) f = b.add(b.mul(f, b.i(win[j].size)), pos[j]);
      return f;
    };
    if (indices) {
      // PyTorch's initial index is the window's first position; a column that never takes a value keeps its own
      // column in the window's first row, so the smallest over a segment is that output's first position.
      std::vector<const TExpr*> first(start.begin(), start.end() - 1);
      first.push_back(w_in);
      body.push_back(TileBuilder::assign("idx", b.add(flat(first), b.zeros(tile, itype))));
    }
    const TExpr* col_ok = row_block != last.size ? b.lt(w_in, b.i(last.size)) : nullptr;
    std::vector<TStmt>* cur = &body;
    const TExpr* mask = col_ok;
    std::vector<const TExpr*> pos(dims);
    for (int j = 0; j + 1 < dims; ++j) {
      const WindowDim& w = win[j];
      std::string l = kLetters[3 - dims + j];
      bool rows_axis = j == dims - 2;
      int64_t chunks = rows_axis ? (w.kernel + block_h - 1) / block_h : w.kernel;
      TStmt loop{TStmtKind::For};
      loop.var = rows_axis ? "kh0" : "k" + l;
      loop.start = b.i(0);
      loop.stop = b.i(w.kernel);
      loop.step = b.i(rows_axis ? block_h : 1);
      bool looped = chunks > 1;
      std::vector<TStmt>& out = looped ? loop.body : *cur;
      const TExpr* k = rows_axis ? b.var("kh") : b.var(loop.var);
      if (rows_axis && looped) k = b.add(b.var(loop.var), k);
      bool at_zero = start[j]->op == TOp::Int && start[j]->ival == 0;
      out.push_back(TileBuilder::assign(l + "_in", at_zero ? k : b.add(start[j], k)));
      pos[j] = b.var(l + "_in");
      const TExpr* ok = nullptr;
      if (w.varies()) ok = b.lt(pos[j], end[j]);
      else if (rows_axis && chunks * block_h != w.kernel) ok = b.lt(k, b.i(w.kernel));
      if (ok) {
        out.push_back(TileBuilder::assign("ok_" + l, ok));
        mask = b.band(mask, b.var("ok_" + l));
      }
      const TExpr* term = st[lead + j] == 1 ? pos[j] : b.mul(pos[j], b.i(st[lead + j]));
      off = off ? b.add(off, term) : term;
      if (!rows_axis) {
        out.push_back(TileBuilder::assign("row_" + l, off));
        off = b.var("row_" + l);
      }
      if (!looped) continue;
      cur->push_back(std::move(loop));
      cur = &cur->back().body;
    }
    pos[dims - 1] = w_in;
    const TExpr* w_term = st[rank - 1] == 1 ? w_in : b.mul(w_in, b.i(st[rank - 1]));
    const TExpr* v = b.load(b.add(x_ptr, b.add(off, w_term)), mask, mask ? b.f(pad_value) : nullptr);
    cur->push_back(TileBuilder::assign("v", b.cast(v, f32)));
    const TExpr* v_var = b.var("v");
    const TExpr* idx_v = b.var("idx");
    if (max && !indices) {
      cur->push_back(TileBuilder::assign(acc, nan_max(acc_v, v_var)));
    } else if (max) {
      // PyTorch's rule: a larger value or a NaN replaces the maximum (padding loads -inf and never does).
      const TExpr* take = b.op(TOp::Or, {b.op(TOp::Gt, {v_var, acc_v}), b.op(TOp::Ne, {v_var, v_var})});
      cur->push_back(TileBuilder::assign("take", take));
      take = b.var("take");
      cur->push_back(TileBuilder::assign("idx", b.op(TOp::Where, {take, flat(pos), idx_v})));
      cur->push_back(TileBuilder::assign(acc, b.op(TOp::Where, {take, v_var, acc_v})));
    } else {
      cur->push_back(TileBuilder::assign(acc, b.add(acc_v, v_var)));
    }

    // Combine: the tile's rows along axis 0, then each output's segment of the row along axis 1. A max keeps NaN
    // (the sum of the NaN entries) and its index follows PyTorch's row-major walk: the last NaN (largest index)
    // or else the first maximum (smallest index at the top); a sentinel past every flat index keeps others out.
    int64_t plane = 1;
    for (const WindowDim& w : win) plane *= w.size;
    body.push_back(TileBuilder::assign("seg", b.band(b.op(TOp::Ge, {w_in, start[dims - 1]}),
                                                     b.lt(w_in, end[dims - 1]))));
    const TExpr* seg = b.var("seg");
    for (int axis = 0; axis < 2; ++axis) {
      const TExpr* in = axis == 0 ? nullptr : seg;  // entries that belong to the reduction
      if (!max) {
        const TExpr* x = in ? b.op(TOp::Where, {in, acc_v, b.f(0.0)}) : acc_v;
        body.push_back(TileBuilder::assign(acc, b.reduce(TOp::Sum, x, axis)));
        continue;
      }
      const TExpr* nan = b.band(in, b.op(TOp::Ne, {acc_v, acc_v}));
      const TExpr* x = in ? b.op(TOp::Where, {in, acc_v, b.f(pad_value)}) : acc_v;
      body.push_back(TileBuilder::assign("top", b.reduce(TOp::Max, x, axis)));
      const TExpr* top = b.var("top");
      if (indices) {
        const TExpr* last_nan = b.reduce(TOp::Max, b.op(TOp::Where, {nan, idx_v, b.i(-1)}), axis);
        body.push_back(TileBuilder::assign("nan_idx", last_nan));
        const TExpr* nan_idx = b.var("nan_idx");
        const TExpr* at_top = b.band(in, b.op(TOp::Eq, {acc_v, top}));
        const TExpr* first_top = b.reduce(TOp::Min, b.op(TOp::Where, {at_top, idx_v, b.i(plane)}), axis);
        body.push_back(TileBuilder::assign(
            "idx", b.op(TOp::Where, {b.op(TOp::Ge, {nan_idx, b.i(0)}), nan_idx, first_top})));
      }
      const TExpr* nan_sum = b.reduce(TOp::Sum, b.op(TOp::Where, {nan, acc_v, b.f(0.0)}), axis);
      body.push_back(TileBuilder::assign(acc, b.add(top, nan_sum)));
    }
    if (indices) argmax = idx_v;
    if (max) return acc_v;
    return divide(acc_v, start, end);
  };

  auto emit_window = [&]() -> const TExpr* {
    if (rows_form) return emit_rows();
    const std::vector<int64_t>& st = src_strides;
    const TExpr* x_ptr = operand_base(b, job.buffers.pointer(view_root(src)), src);
    // Base offset of the output's (n, c) plane: the kept dims, by the input's strides.
    const TExpr* base = nullptr;
    for (int d = 0; d < lead; ++d) {
      if (ve.rep()[d] != d || st[d] == 0) continue;
      const TExpr* term = st[d] == 1 ? ve.index[d] : b.mul(ve.index[d], b.i(st[d]));
      base = base ? b.add(base, term) : term;
    }
    // A single output, or an input broadcast along every dim that the tile walks (strides 0, e.g. an expanded
    // scalar): the tile still shapes the pointers (Triton rejects a block mask on a scalar pointer).
    bool walks = false;
    for (int j = 0; j < dims; ++j) walks = walks || (st[lead + j] != 0 && ve.rep()[lead + j] == lead + j);
    if (offs && (outermost < 0 || (!base && !walks))) base = b.mul(b.i(0), offs);
    if (base) {
      body.push_back(TileBuilder::assign("base", base));
      base = b.var("base");
    }
    // Per pooled dim: the window's first position (and its end for adaptive windows, which vary in size).
    std::vector<const TExpr*> start(dims), end(dims);
    for (int j = 0; j < dims; ++j) {
      const WindowDim& w = win[j];
      std::string l = kLetters[3 - dims + j];
      const TExpr* o = ve.rep()[lead + j] == lead + j ? ve.index[lead + j] : nullptr;
      const TExpr* s;
      if (!o) {  // one output along this dim: one window, at a constant position
        s = b.i(w.start(0));
      } else if (w.adaptive) {
        s = w.start_of(b, o);
        if (w.varies()) {
          body.push_back(TileBuilder::assign(l + "_end", w.end_of(b, o)));
          end[j] = b.var(l + "_end");
        }
      } else {
        s = w.stride == 1 ? o : b.mul(o, b.i(w.stride));
        if (w.pad) s = b.op(TOp::Sub, {s, b.i(w.pad)});
      }
      if (s->op != TOp::Var && s->op != TOp::Int) {
        body.push_back(TileBuilder::assign(l + "_start", s));
        s = b.var(l + "_start");
      }
      start[j] = s;
    }

    DType f32 = DType::Float32;
    const char* acc = "acc";
    double pad_value = max ? -std::numeric_limits<double>::infinity() : 0.0;
    body.push_back(TileBuilder::assign(acc, max ? b.full(tile, b.f(pad_value), f32) : b.zeros(tile, f32)));
    if (indices) {
      // PyTorch's initial index: each dim's first window position that is not negative (stepping by the
      // dilation), even past the input's end; it stays when no valid value exceeds -inf.
      const TExpr* first = nullptr;
      for (int j = 0; j < dims; ++j) {
        const WindowDim& w = win[j];
        const TExpr* f = start[j];
        if (f->op == TOp::Int) {
          int64_t v = f->ival;
          while (v < 0) v += w.dilation;
          f = b.i(v);
        } else if (!w.adaptive && w.pad > 0) {
          const TExpr* up = b.op(TOp::FloorDiv, {b.op(TOp::Sub, {b.i(w.dilation - 1), f}), b.i(w.dilation)});
          const TExpr* moved = w.dilation == 1 ? b.i(0) : b.add(f, b.mul(up, b.i(w.dilation)));
          f = b.op(TOp::Where, {b.lt(f, b.i(0)), moved, f});
        }
        first = first ? b.add(b.mul(first, b.i(w.size)), f) : f;
      }
      body.push_back(TileBuilder::assign("idx", b.add(first, b.zeros(tile, wide ? DType::Int64 : DType::Int32))));
    }
    std::string lane_var = std::string("k") + kLetters[2];
    if (lanes > 1) body.push_back(TileBuilder::assign(lane_var, b.expand(b.arange(b.i(lanes)), "None, :")));

    // Nested loops over the window, outermost pooled dim first (the last one is the lane axis, if any); the
    // innermost dims are unrolled while the loads in flight stay at about 64 values per thread.
    int loops = lanes > 1 ? dims - 1 : dims;
    std::vector<char> unroll(dims, 0);
    int64_t per_load = std::max<int64_t>(1, tile_size / (32 * num_warps));
    int64_t budget = std::clamp<int64_t>(64 / per_load, 1, 32);
    int64_t unrolled = 1;
    for (int j = loops - 1; j >= 0; --j) {
      if (unrolled * win[j].kernel > budget) break;
      unrolled *= win[j].kernel;
      unroll[j] = 1;
    }
    std::vector<TStmt>* cur = &body;
    const TExpr* off = base;
    const TExpr* mask = out_mask;
    for (int j = 0; j < dims; ++j) {
      const WindowDim& w = win[j];
      std::string l = kLetters[3 - dims + j];
      TStmt loop{TStmtKind::For};
      loop.var = "k" + l;
      loop.start = b.i(0);
      loop.stop = b.i(w.kernel);
      loop.step = b.i(1);
      loop.unroll = unroll[j];
      // The lane dim's offsets are the tile's second axis, in chunks of LANES when the window is longer.
      bool lane_dim = j >= loops;
      int64_t chunks = lane_dim ? (w.kernel + lanes - 1) / lanes : 0;
      bool looped = !lane_dim || chunks > 1;
      std::vector<TStmt>& out = looped ? loop.body : *cur;
      const TExpr* k = b.var(loop.var);
      if (lane_dim) {
        k = b.var(lane_var);
        if (chunks > 1) {
          loop.var = lane_var + "0";
          loop.step = b.i(lanes);
          k = b.add(b.var(loop.var), k);
        }
      }
      const TExpr* step = w.dilation == 1 ? k : b.mul(k, b.i(w.dilation));
      bool at_zero = start[j]->op == TOp::Int && start[j]->ival == 0;
      const TExpr* pos = at_zero ? step : b.add(start[j], step);
      out.push_back(TileBuilder::assign(l + "_in", pos));
      pos = b.var(l + "_in");
      // Bounds only where some window crosses them.
      const TExpr* ok = nullptr;
      if (lane_dim && chunks * lanes != w.kernel && !(w.adaptive && end[j])) ok = b.lt(k, b.i(w.kernel));
      if (w.adaptive) {
        if (end[j]) ok = b.band(ok, b.lt(pos, end[j]));
      } else {
        int64_t last = w.start(w.out - 1) + (w.kernel - 1) * w.dilation;
        if (w.pad > 0) ok = b.band(ok, b.op(TOp::Ge, {pos, b.i(0)}));
        if (last >= w.size) ok = b.band(ok, b.lt(pos, b.i(w.size)));
      }
      if (ok) {
        out.push_back(TileBuilder::assign("ok_" + l, ok));
        mask = b.band(mask, b.var("ok_" + l));
      }
      int64_t stride = st[lead + j];
      const TExpr* term = stride == 1 ? pos : b.mul(pos, b.i(stride));
      off = off ? b.add(off, term) : term;
      if (j + 1 < dims) {
        out.push_back(TileBuilder::assign("row_" + l, off));
        off = b.var("row_" + l);
      }
      if (!looped) continue;
      cur->push_back(std::move(loop));
      cur = &cur->back().body;
    }
    const TExpr* v = b.load(b.add(x_ptr, off), mask, mask ? b.f(pad_value) : nullptr);
    cur->push_back(TileBuilder::assign("v", b.cast(v, f32)));
    const TExpr* acc_v = b.var(acc);
    const TExpr* v_var = b.var("v");
    if (max && !indices) {
      cur->push_back(TileBuilder::assign(acc, nan_max(acc_v, v_var)));
    } else if (max) {
      // PyTorch's rule: a larger value or a NaN replaces the maximum (so NaN propagates, as in eager).
      const TExpr* take = b.op(TOp::Or, {b.op(TOp::Gt, {v_var, acc_v}), b.op(TOp::Ne, {v_var, v_var})});
      const TExpr* idx_v = b.var("idx");
      take = b.band(mask, take);
      const TExpr* flat = b.var(std::string(kLetters[3 - dims]) + "_in");
      for (int j = 1; j < dims; ++j) {
        flat = b.add(b.mul(flat, b.i(win[j].size)), b.var(std::string(kLetters[3 - dims + j]) + "_in"));
      }
      cur->push_back(TileBuilder::assign("take", take));
      take = b.var("take");
      cur->push_back(TileBuilder::assign("idx", b.op(TOp::Where, {take, flat, idx_v})));
      cur->push_back(TileBuilder::assign(acc, b.op(TOp::Where, {take, v_var, acc_v})));
    } else {
      cur->push_back(TileBuilder::assign(acc, b.add(acc_v, v_var)));
    }
    if (lanes > 1) {
      // Reduce the lanes; a NaN in any lane is carried through the sum of the NaN lanes (0 when there are none).
      const TExpr* red = b.reduce(max ? TOp::Max : TOp::Sum, acc_v, 1);
      const TExpr* nan_lane = b.op(TOp::Ne, {acc_v, acc_v});
      if (indices) {
        // Each lane holds its column's first maximum (or last NaN); across lanes, PyTorch's row-major walk picks
        // the last NaN (the NaN lane with the largest index) or else the first maximum (the smallest index among
        // the lanes equal to the max). Lanes that never took a value hold the initial index, which is where the
        // walk ends too when every value is -inf; a sentinel past every flat index keeps other lanes out of tl.min.
        int64_t plane = 1;
        for (const WindowDim& w : win) plane *= w.size;
        body.push_back(TileBuilder::assign("top", red));
        red = b.var("top");
        const TExpr* idx_v = b.var("idx");
        const TExpr* last_nan = b.reduce(TOp::Max, b.op(TOp::Where, {nan_lane, idx_v, b.i(-1)}), 1);
        body.push_back(TileBuilder::assign("nan_idx", last_nan));
        const TExpr* nan_idx = b.var("nan_idx");
        const TExpr* at_top = b.op(TOp::Eq, {acc_v, red});
        const TExpr* first_top = b.reduce(TOp::Min, b.op(TOp::Where, {at_top, idx_v, b.i(plane)}), 1);
        const TExpr* any_nan = b.op(TOp::Ge, {nan_idx, b.i(0)});
        body.push_back(TileBuilder::assign("idx", b.op(TOp::Where, {any_nan, nan_idx, first_top})));
      }
      if (max) red = b.add(red, b.reduce(TOp::Sum, b.op(TOp::Where, {nan_lane, acc_v, b.f(0.0)}), 1));
      if (values) body.push_back(TileBuilder::assign(acc, red));
    }
    if (indices) argmax = b.var("idx");
    if (max) return acc_v;
    return divide(acc_v, start, end);
  };
  const TExpr* pooled = nullptr;
  ve.on_window = [&](const Node* n) -> const TExpr* {
    if (!pooled) pooled = emit_window();
    return n->attr.str == "indices" ? argmax : pooled;
  };
  for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));

  job.launch.grid = {std::to_string(programs)};
  job.launch.num_warps = num_warps;
}

}  // namespace tz
