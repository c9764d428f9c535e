// Scan kernels (cumsum, cumprod along one axis): a 2-D tile, as for reductions. When the scan axis is
// innermost ("rows"), tile axis 0 walks BLOCK_M rows and axis 1 the row; otherwise ("columns") axis 0 walks
// the scan axis and axis 1 BLOCK_I inner columns, and each program owns one outer index. Every value of the
// kernel (producers, scans, consumers) is computed tile by tile, so the input is read once and each output
// written once.
//
// Floating scans compute what PyTorch's CUDA scan computes, bit for bit (docs/NUMERICS.md): its order of
// operations, and for fp16/bf16 a rounding to the scan's type after every operation (ATen accumulates in
// the scalar type). ATen's scan_dim picks one of three orders, and so do we:
//   - the scanned dim is the last one: rows are scanned in tiles of 2T elements (T from ATen's
//     get_log_num_threads_x_inner_scan), each tile by Sklansky's levels (the _aten_scan_tile helper),
//     the previous tile's last value combined into the tile's first element before the levels (rows in
//     tiles of 32 that lie along memory load CHUNKS tiles a loop step, then scan them in order);
//   - another dim: each column is a sequential fold, acc = op(acc, x[k]), one row of the chunk at a time;
//   - the tensor has one non-unit dim (CUB's decoupled look-back, not reproducible): tl.cumsum, like
//     integer scans (exact in any order). Reverse scans scan the flipped row in its own order; row tiles
//     hold it in memory order (the helper walks the tile backwards), so that loads and stores coalesce.
// Narrow row tiles (up to 128) fetch each level's partner by tl.gather (a warp shuffle), wider ones pick
// it by a masked sum over a reshaped tile.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>

#include "graph/view.h"
#include "kernel/lower_kinds.h"

namespace tz {

namespace {

const int64_t kMaxRowTile = 4096;  // elements of one row scanned in registers (tree order)
const int64_t kMaxTile = 8192;     // elements held by one program (tree order)
const int64_t kAtenTileElems = 2048;  // elements of one program's tile in ATen's row order
// ATen's tiles of 32 (most rows: T = 16 whenever there are many more rows than elements in one): 16 rows a
// program, on 8 warps for a 16-bit scan and 4 for fp32. Measured on the H200 with tests/gpu/tiles_experiment.py
// (rowscan, 2026-12-04, kernel time, L2 flushed): fp16 [262144, 2047] 1.21 ms on 8 warps, 1.44 ms on 4, against
// 1.76 ms for 64 rows on 4 warps (the form before); fp32 [65536, 4000] 0.63 ms on 4 warps (0.77 ms on 8) against
// 0.64 ms. Wider tiles of a row held whole keep kAtenTileElems (unmeasured).
// Rows longer than one of ATen's wide tiles (T = 64 or 128: few long rows) walk the row in tiles of
// kAtenLoopTileElems elements (2 rows of 256, 4 of 128), on one warp per 256 elements, the carry broadcast by a
// gather. tests/gpu/tiles_experiment.py (longscan, 2026-12-04, kernel time, L2 flushed): fp32 [4096, 65537]
// 0.63 ms as [2, 256] on 2 warps or [1, 256] on 1, against 0.69 ms as [8, 256] on 4 warps (the form before,
// the carry there by a masked sum).
const int64_t kAtenNarrowRows = 16;
const int64_t kAtenLoopTileElems = 512;
const int kAtenNarrowWarps = 4;
const int kAtenNarrowHalfWarps = 8;
// ATen's column order: chunks of kSeqChunk rows folded one by one, on one warp, a column per lane and the chunk
// in-thread: BLOCK_I = 32 lanes x one 16-byte load each (128 fp32 or 256 16-bit columns). Narrower tiles put
// several lanes on one row of the chunk (Triton splits a 128-byte row into 16-byte loads), and picking a row out of
// the chunk became a cross-lane reduction. Measured on the H200 (tests/gpu/tiles_experiment.py colscan,
// 2026-12-04, kernel time, L2 flushed, docs/gpu-runs/2026-12-04-session11-colscan.json): fp32 [16384, 8192]
// 0.62 ms as [32, 128] (64 programs) against 1.74 ms as [32, 32] (256 programs, the form before, which narrowed
// the tile to fill the grid); [16384, 2048] 0.51 against 1.66; [65536, 1024] 1.98 (8 programs) against 6.50.
// (tl.cumsum of the chunk seeded with the running total is as fast, and bit-exact only in this layout.)
const int64_t kSeqChunk = 32;
const int64_t kSeqLaneBytes = 16;
// Rows walked in ATen's tiles of 32 whose loads Triton issues an element at a time (row starts not 16-byte
// aligned: 8191 floats, 2047 halves) load kScalarRowChunks tiles of each row at the top of a loop step, then scan
// them one after the other (the carry chained as before: the same operations in the same order). One tile a step
// left a thread 4 bytes of each step's load in flight, and the next load waited for the carry's chain of shuffles.
// PTX (sm_90): all CHUNKS loads issue before the first chunk's shuffles (fp16 [262144, 2047]: 16 ld.global.b16,
// then 8 x (12 shuffles, 2 stores)). Measured on the H200 (tests/gpu/scan_chunks_experiment.py, 2026-12-04, kernel
// time; tiles a step 1 / 2 / 4 / 8): fp32 [32768, 8191] 1.05 / 1.00 / 0.88 / 0.83 ms, fp16 [262144, 2047] 1.21 /
// 1.06 / 1.04 / 0.94 ms; but rows loaded as vectors lose: fp32 [65536, 4000] 0.63 / 0.68 / 0.76 / 0.75 ms (and in
// the corpus A/B scan_cumsum_lastdim 1.02x, scan_cat_slices 1.08x slower at 2), so they keep one tile a step. Rows
// strided in memory keep one too (see below).
const int64_t kScalarRowChunks = 8;

// Which order of operations the kernel's scans follow (see the file comment).
enum class Order { Tree, AtenRows, AtenColumns };

struct Plan {
  Order order = Order::Tree;
  bool rows = true;              // the scan axis is innermost
  bool persistent = true;
  int64_t m = 1, r = 1, i = 1;   // outer, scanned, inner sizes
  int64_t block_m = 1, block_r = 1, block_i = 1;
  int levels = 0;                // AtenRows: Sklansky levels of a tile (log2 BLOCK_R)
  int64_t chunks = 1;            // AtenRows, looped: tiles of a row loaded per loop step
  std::vector<int> outer, inner;  // representative dims before and after the scan axis
};

int log2_ceil(uint64_t v) {
  int l = 0;
  while ((uint64_t{1} << l) < v) ++l;
  return l;
}

// ATen's get_log_num_threads_x_inner_scan<uint32_t>: log2 of the threads along a row, so that a tile is
// 2^(log + 1) elements. Computed in uint32 as ATen does: a negative 9 + diff wraps and clamps to 9.
int aten_log_threads_x(int64_t num_rows, int64_t row_size) {
  uint32_t lx = static_cast<uint32_t>(log2_ceil(static_cast<uint64_t>(row_size)));
  uint32_t ly = static_cast<uint32_t>(log2_ceil(static_cast<uint64_t>(num_rows)));
  uint32_t diff = lx - ly;
  uint32_t log_x = (9u + diff) / 2u;
  return static_cast<int>(std::min(std::max(log_x, 4u), 9u));
}

// x rounded to a half type and back, as ATen rounds after each operation of a Half/BFloat16 scan.
const TExpr* round_to(TileBuilder& b, const TExpr* x, DType t) {
  if (t != DType::Float16 && t != DType::BFloat16) return x;
  return b.cast(b.cast(x, t), DType::Float32);
}

const char* round_name(DType t) {
  switch (t) {
    case DType::Float16: return "tl.float16";
    case DType::BFloat16: return "tl.bfloat16";
    default: return "tl.float32";
  }
}

// The largest magnitude an integer value can take, known from dtypes alone (-1: unknown): a bool is 0 or 1, and so
// is a cast of one, or a view.
int64_t int_magnitude(const Node* x) {
  if (x->dtype == DType::Bool) return 1;
  if (is_floating(x->dtype)) return -1;
  if (x->op == Op::Cast || op_kind(x->op) == OpKind::View) return int_magnitude(x->src[0]);
  return -1;
}

}  // namespace

void lower_scan(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const int axis = static_cast<int>(g.axes.at(0));
  const int rank = static_cast<int>(g.space.size());
  TZ_ASSERT(g.space[axis] > 1, "a scan over a unit dim reached lowering");
  bool reverse = false;
  bool any_float = false;
  bool half = false;  // a scan rounds to fp16 or bf16
  for (auto* n : g.nodes) {
    if (op_kind(n->op) != OpKind::Scan) continue;
    reverse = n->attr.ints[1] != 0;
    any_float = any_float || is_floating(n->dtype);
    half = half || n->dtype == DType::Float16 || n->dtype == DType::BFloat16;
    TZ_ASSERT(n->shape == g.space, "a scan's shape differs from its kernel's space");
  }
  // A cat (fuse's store epilogue) has the space's dims, its size along the scanned one aside.
  auto cat_map = [&](const Node* cat) {
    std::vector<int> map;
    for (int d = 0; d < rank; ++d) map.push_back(cat->shape[d] == 1 && g.space[d] == 1 ? -1 : d);
    return map;
  };
  for (auto* o : g.outputs) {
    if (g.writes_cat(o)) {
      std::vector<CatPiece> pieces;
      TZ_ASSERT(cat_pieces(o, pieces), "a cat of a scan kernel is not one");
      for (const CatPiece& piece : pieces) {
        if (piece.root->op != Op::Const) ve.collect(piece.root, group_map(g, piece.root));
      }
      ve.collect_store(o, cat_map(o));
      continue;
    }
    ve.collect(o, group_map(g, o));
    ve.collect_store(o, group_map(g, o));
  }
  // The scan axis keeps its own index: it never shares a run with its neighbours.
  ve.merge_dims([&](int d) {
    int next = d + 1;
    while (next < rank && g.space[next] == 1) ++next;
    return next < rank && d != axis && next != axis;
  });

  Plan p;
  for (int d = 0; d < rank; ++d) {
    if (ve.rep()[d] != d || d == axis) continue;
    (d < axis ? p.outer : p.inner).push_back(d);
  }
  for (int d : p.outer) p.m *= ve.run_size(d);
  for (int d : p.inner) p.i *= ve.run_size(d);
  p.r = g.space[axis];
  // ATen's scan_dim: CUB over a tensor with one non-unit dim, else innermost (the logical last dim, unit
  // dims included) or outer. Integer scans are exact in any order.
  int64_t numel = 1;
  for (int64_t s : g.space) numel *= s;
  if (any_float && numel != p.r) p.order = axis == rank - 1 ? Order::AtenRows : Order::AtenColumns;
  p.rows = p.order == Order::Tree ? p.inner.empty() : p.order == Order::AtenRows;
  if (p.order == Order::AtenRows) {
    int64_t tile = int64_t{2} << aten_log_threads_x(numel / p.r, p.r);
    // A row within one of ATen's tiles: the levels above log2(next_pow2(R)) only change elements past R.
    p.persistent = p.r <= tile;
    p.block_r = p.persistent ? next_pow2(p.r) : tile;
    p.levels = log2_ceil(static_cast<uint64_t>(p.block_r));
    int64_t tile_elems = p.block_r == 32 ? kAtenNarrowRows * 32 : p.persistent ? kAtenTileElems : kAtenLoopTileElems;
    p.block_m = std::clamp<int64_t>(tile_elems / p.block_r, 1, next_pow2(p.m));
  } else if (p.order == Order::AtenColumns) {
    p.persistent = false;
    p.block_r = std::min(kSeqChunk, next_pow2(p.r));
    p.block_i = std::min<int64_t>(next_pow2(p.i), 32 * kSeqLaneBytes / narrowest_element(g));
  } else if (p.rows) {
    p.persistent = next_pow2(p.r) <= kMaxRowTile;
    p.block_r = p.persistent ? next_pow2(p.r) : 2048;
    p.block_m = p.persistent ? std::clamp<int64_t>(kMaxRowTile / p.block_r, 1, next_pow2(p.m)) : 1;
  } else {
    p.block_i = std::min<int64_t>(next_pow2(p.i), 64);
    p.persistent = next_pow2(p.r) * p.block_i <= kMaxTile;
    p.block_r = p.persistent ? next_pow2(p.r) : std::max<int64_t>(1, 4096 / p.block_i);
  }

  int64_t tile = (p.rows ? p.block_m : p.block_i) * p.block_r;
  job.launch.num_warps = static_cast<int>(std::clamp<int64_t>(tile / 512, 1, 8));
  if (p.order == Order::AtenColumns) job.launch.num_warps = 1;  // one column per lane, the chunk in-thread
  if (p.order == Order::AtenRows && p.block_r == 32) {
    job.launch.num_warps = half ? kAtenNarrowHalfWarps : kAtenNarrowWarps;
  } else if (p.order == Order::AtenRows && !p.persistent) {
    job.launch.num_warps = static_cast<int>(std::max<int64_t>(1, tile / 256));
  }
  // Only rows that lie along memory: a load strided along the row (the scan of x.t()) is converted to the scan's
  // layout through shared memory right after it (PTX: ld, bar.sync, st.shared per chunk), so the next chunk's load
  // waits for this one's data, and loading chunks together gains nothing.
  bool loads_along_rows = true;
  const auto& accesses = ve.accesses();
  for (size_t k = 0; k < accesses.size(); ++k) {
    bool store = k < ve.access_is_store().size() && ve.access_is_store()[k];
    if (!store && std::abs(accesses[k][axis]) > 1) loads_along_rows = false;
  }
  // (rows loaded an element at a time: a load of whole rows, at least a row apart, along the row with another
  // stride that breaks 16-byte alignment; a narrow piece of a cat, [M, 1] at the row's end, is not one: with it,
  // scan_cat_slices' aligned rows took 8 tiles a step and ran 0.39 -> 0.51 ms)
  bool scalar_rows = false;
  const int64_t vec = 16 / narrowest_load(g);
  for (size_t k = 0; k < accesses.size(); ++k) {
    bool store = k < ve.access_is_store().size() && ve.access_is_store()[k];
    if (store || accesses[k][axis] != 1) continue;
    for (size_t d = 0; d < accesses[k].size(); ++d) {
      const int64_t stride = std::abs(accesses[k][d]);
      if (static_cast<int>(d) != axis && ve.rep()[d] == static_cast<int>(d) && ve.run_size(static_cast<int>(d)) > 1 &&
          stride >= p.r && stride % vec != 0) {
        scalar_rows = true;
      }
    }
  }
  if (p.order == Order::AtenRows && !p.persistent && p.block_r == 32 && loads_along_rows && scalar_rows) {
    int64_t steps = (p.r + p.block_r - 1) / p.block_r;
    p.chunks = std::min<int64_t>(kScalarRowChunks, next_pow2(steps));
  }

  auto& body = job.kernel.body;
  ve.out = &body;
  const TExpr* R = job.constexpr_param("R", p.r);
  const TExpr* block_r = job.constexpr_param("BLOCK_R", p.block_r);
  const TExpr* pid = b.program_id(0);
  const int scan_axis = p.rows ? 1 : 0;
  const std::string along = p.rows ? "None, :" : ":, None";
  const std::string carry_shape = p.rows ? "[BLOCK_M, 1]" : "[1, BLOCK_I]";
  ve.axis_mask.assign(2, nullptr);

  if (p.rows) {
    const TExpr* M = job.constexpr_param("M", p.m);
    const TExpr* block_m = job.constexpr_param("BLOCK_M", p.block_m);
    body.push_back(TileBuilder::assign("rows", b.add(b.mul(pid, block_m), b.expand(b.arange(block_m), ":, None"))));
    const TExpr* rows = b.var("rows");
    if (p.m % p.block_m != 0) {
      body.push_back(TileBuilder::assign("row_mask", b.lt(rows, M)));
      ve.axis_mask[0] = b.var("row_mask");
    }
    ve.split_index(rows, p.outer, 0, "i");
    job.launch.grid = {std::to_string((p.m + p.block_m - 1) / p.block_m)};
  } else {
    const TExpr* I = job.constexpr_param("I", p.i);
    const TExpr* block_i = job.constexpr_param("BLOCK_I", p.block_i);
    int64_t i_blocks = (p.i + p.block_i - 1) / p.block_i;
    const TExpr* cols_in_block = b.expand(b.arange(block_i), "None, :");
    if (i_blocks > 1) {
      body.push_back(TileBuilder::assign("outer", b.op(TOp::FloorDiv, {pid, b.i(i_blocks)})));
      body.push_back(TileBuilder::assign(
          "cols", b.add(b.mul(b.op(TOp::Mod, {pid, b.i(i_blocks)}), block_i), cols_in_block)));
    } else {
      body.push_back(TileBuilder::assign("outer", pid));
      body.push_back(TileBuilder::assign("cols", cols_in_block));
    }
    if (p.i % p.block_i != 0) {
      body.push_back(TileBuilder::assign("col_mask", b.lt(b.var("cols"), I)));
      ve.axis_mask[1] = b.var("col_mask");
    }
    ve.split_index(b.var("outer"), p.outer, -1, "o");
    ve.split_index(b.var("cols"), p.inner, 1, "i");
    job.launch.grid = {std::to_string(p.m * i_blocks)};
  }

  // The scanned index of a chunk starting at `start` (null: the whole row in one tile), with its mask.
  // In ATen's orders a reverse scan walks the flipped row in its own order: scan position q is index
  // R - 1 - q. AtenRows holds a chunk in memory order all the same (column c of the tile is scan position
  // BLOCK_R - 1 - c, and the tile helper scans backwards), so that loads and stores run forwards: a
  // decreasing index makes Triton give up coalescing. AtenColumns keeps `local` as the scan position.
  // The tree order walks chunks from the end and scans each with reverse=True.
  const bool aten = p.order != Order::Tree;
  const bool backwards = p.order == Order::AtenRows && reverse;
  const bool tile_reversed = reverse && p.order != Order::AtenColumns;  // the tile's last column scans first
  const TExpr* local = b.expand(b.arange(block_r), along);
  // Column tiles load a value that varies along the scanned dim alone (a [T, 1] row factor: a padding mask over
  // the features) as a 1-D [BLOCK_R] tile expanded to [BLOCK_R, 1] (ValueEmitter::Line). Loaded as [BLOCK_R, 1],
  // Triton laid it out along its contiguous rows, across the lanes, and that layout spread to the whole tile: each
  // row of the fold became a shuffle reduction. cumsum(x * mask.unsqueeze(-1), dim=1) over fp32 [64, 2047, 4096]
  // ran 338 ms on the H200, eager 3.5 ms (scripts/ptx_census.py: 54,227 PTX instructions a thread); with the 1-D
  // load the tile keeps the fold's layout (a column per lane, the chunk in-thread: 953 instructions, the mask
  // passed to it through 32 bytes of shared memory), and the product no longer needs a kernel of its own.
  bool line_loads = false;
  if (!p.rows) {
    for (size_t k = 0; k < accesses.size(); ++k) {
      bool store = k < ve.access_is_store().size() && ve.access_is_store()[k];
      if (store || accesses[k][axis] == 0) continue;
      bool alone = true;
      for (int d : p.inner) alone = alone && accesses[k][d] == 0;
      line_loads = line_loads || alone;
    }
  }
  // `suffix` names the chunk's index and mask (the tiles of one loop step: "", "1", "2", ...).
  auto setup_chunk = [&](const TExpr* start, std::vector<TStmt>& out, const std::string& suffix) {
    const bool flipped = aten && reverse;
    // The scanned index at the positions `at` (a tile of the chunk's local positions) and its range test.
    auto scan_index = [&](const TExpr* at) {
      const TExpr* q = start ? b.add(start, at) : at;
      if (backwards) {
        // Scan positions start .. start + BLOCK_R - 1 are indices R - BLOCK_R - start .. R - 1 - start.
        const TExpr* first = b.op(TOp::Sub, {R, block_r});
        return b.add(start ? b.op(TOp::Sub, {first, start}) : first, at);
      }
      return flipped ? b.op(TOp::Sub, {b.op(TOp::Sub, {R, b.i(1)}), q}) : q;
    };
    // A reverse walk starts at the end, so its one partial chunk is the last, at the front of the row. (With
    // several chunks a step, the last step's chunks past the row's end are masked whole.)
    const bool partial = p.r % (p.block_r * p.chunks) != 0;
    auto in_row = [&](const TExpr* r) {
      return (start && reverse) || flipped ? b.op(TOp::Ge, {r, b.i(0)}) : b.lt(r, R);
    };
    out.push_back(TileBuilder::assign("r" + suffix, scan_index(local)));
    const TExpr* r = b.var("r" + suffix);
    ve.axis_mask[scan_axis] = nullptr;
    if (partial) {
      out.push_back(TileBuilder::assign("r_mask" + suffix, in_row(r)));
      ve.axis_mask[scan_axis] = b.var("r_mask" + suffix);
    }
    ve.index[axis] = r;
    ve.axis_of[axis] = scan_axis;
    if (line_loads) {
      out.push_back(TileBuilder::assign("r_line" + suffix, scan_index(b.arange(block_r))));
      ve.line = {axis, b.var("r_line" + suffix), nullptr, along};
      if (partial) {
        out.push_back(TileBuilder::assign("r_line_mask" + suffix, in_row(b.var("r_line" + suffix))));
        ve.line.mask = b.var("r_line_mask" + suffix);
      }
    }
  };

  // An integer scan in tl.cumsum's order accumulates in int32 where every partial result provably fits (each is a
  // sum or product of a run of inputs): a cumsum of R values of magnitude at most m with R * m < 2^31, a cumprod of
  // values of magnitude at most 1; it is widened to the scan's int64 after. A bool mask's positions (cumsum over
  // [65536, 4095], scripts/ptx_census.py): 1429 PTX instructions a thread in int64 (each add two instructions, each
  // shuffle two, 102 registers), 821 in int32 (85 registers). (The input's dtype is the traced one: an input traced
  // as bool must be bool at run time, as for the other integer semantics baked into the kernels.)
  auto accumulator = [&](const Node* scan) {
    if (is_floating(scan->dtype) || p.order != Order::Tree) return scan->dtype;
    int64_t m = int_magnitude(scan->src[0]);
    bool fits = m >= 0 && (scan->op == Op::Cumsum ? m * p.r <= INT32_MAX : m <= 1);
    return fits ? DType::Int32 : scan->dtype;
  };
  auto widened = [&](const Node* scan, const TExpr* v) {
    return accumulator(scan) != scan->dtype ? b.cast(v, scan->dtype) : v;
  };
  auto neutral_of = [&](const Node* scan) -> const TExpr* {
    bool fp = is_floating(scan->dtype);
    if (scan->op == Op::Cumsum) return fp ? b.f(0.0) : b.i(0);
    return fp ? b.f(1.0) : b.i(1);
  };
  // The value to scan, masked lanes set to the scan's neutral element, integers widened to int64. A
  // half-precision scan reads its input rounded to its type, as eager PyTorch materializes it.
  auto scan_input = [&](const Node* scan) {
    const Node* x = scan->src[0];
    const TExpr* v = ve.value(x, group_map(g, x));
    bool fp = is_floating(x->dtype);
    if (!fp) v = b.cast(v, accumulator(scan));
    if (aten && fp && op_kind(x->op) != OpKind::Leaf) v = round_to(b, v, scan->dtype);
    const TExpr* mask = b.band(ve.axis_mask[0], ve.axis_mask[1]);
    if (mask) v = b.op(TOp::Where, {mask, v, neutral_of(scan)});
    return v;
  };
  auto tile_op = [](const Node* scan) { return scan->op == Op::Cumsum ? TOp::Cumsum : TOp::Cumprod; };
  // _aten_scan_tile(x, BLOCK_M, BLOCK_R, levels, is cumprod, rounding type, backwards): ATen's levels on
  // a row tile.
  auto aten_tile = [&](const Node* scan, const TExpr* x) {
    job.kernel.needs_aten_scan_tile = true;
    const TExpr* prod = b.var(scan->op == Op::Cumprod ? "True" : "False");
    return b.call("_aten_scan_tile", {x, b.var("BLOCK_M"), block_r, b.i(p.levels), prod,
                                      b.var(round_name(scan->dtype)), b.var(backwards ? "True" : "False")});
  };
  // An AtenRows tile broadcasts its carry along the row by one gather (a warp shuffle per element) instead of
  // reducing it to a column (log2(BLOCK_R) shuffles per row); the carry is then a full tile.
  auto gather_carry = [&](const Node* scan) {
    return p.order == Order::AtenRows && is_floating(scan->dtype) && !p.persistent;
  };
  auto combine = [&](const Node* scan, const TExpr* x, const TExpr* y) {
    const TExpr* v = scan->op == Op::Cumsum ? b.add(x, y) : b.mul(x, y);
    return is_floating(scan->dtype) ? round_to(b, v, scan->dtype) : v;
  };

  // Every output of the tile at the scan index ve.index[axis]; a cat's pieces each at their offset (view.h
  // CatPiece): the scan's value at index r goes to r - start + lo for r in [start, start + hi - lo), a constant
  // to lo + r for r < hi - lo.
  auto store_outputs = [&]() {
    for (auto* o : g.outputs) {
      if (!g.writes_cat(o)) {
        ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
        continue;
      }
      std::vector<CatPiece> pieces;
      cat_pieces(o, pieces);
      int64_t stride = 1;
      for (int d = axis + 1; d < rank; ++d) stride *= o->shape[d];
      for (const CatPiece& piece : pieces) {
        bool constant = piece.root->op == Op::Const;
        int64_t start = constant ? 0 : piece.start, stop = start + piece.hi - piece.lo;
        const TExpr* r = ve.index[axis];
        const TExpr* in = start > 0 ? b.op(TOp::Ge, {r, b.i(start)}) : nullptr;
        if (stop < p.r) in = b.band(in, b.lt(r, b.i(stop)));
        bool fp = is_floating(o->dtype);
        const TExpr* c = fp ? b.f(piece.root->attr.f) : b.i(static_cast<int64_t>(piece.root->attr.f));
        const TExpr* v = constant ? b.full(p.rows ? "[BLOCK_M, BLOCK_R]" : "[BLOCK_R, BLOCK_I]", c,
                                           fp ? DType::Float32 : DType::Int64)
                                  : ve.value(piece.root, group_map(g, piece.root));
        ve.store(o, cat_map(o), v, (piece.lo - start) * stride, in);
      }
    }
  };

  if (p.persistent) {
    setup_chunk(nullptr, body, "");
    ve.on_reduce = [&](const Node* scan) -> const TExpr* {
      if (!aten || !is_floating(scan->dtype)) {
        return widened(scan, b.scan(tile_op(scan), scan_input(scan), scan_axis, tile_reversed));
      }
      return aten_tile(scan, scan_input(scan));
    };
    store_outputs();
  } else {
    // One carry per scan, set before the loop to the neutral element (AtenColumns: the running fold).
    std::map<const Node*, std::string> carry;
    for (auto* n : g.nodes) {
      if (op_kind(n->op) != OpKind::Scan) continue;
      bool fp = is_floating(n->dtype);
      std::string name = ve.fresh(p.order == Order::AtenColumns ? "acc" : "carry");
      std::string shape = gather_carry(n) ? "[BLOCK_M, BLOCK_R]" : carry_shape;
      body.push_back(TileBuilder::assign(name, b.full(shape, neutral_of(n), fp ? DType::Float32 : accumulator(n))));
      carry[n] = name;
    }
    TStmt loop{TStmtKind::For};
    loop.var = "r0";
    loop.start = b.i(0);
    loop.stop = R;
    loop.step = p.chunks > 1 ? b.mul(block_r, job.constexpr_param("CHUNKS", p.chunks)) : block_r;
    const TExpr* start = b.var("r0");
    if (reverse && !aten) start = b.op(TOp::Sub, {b.op(TOp::Sub, {R, block_r}), start});
    // AtenRows with CHUNKS tiles a step: each chunk's scan inputs (its loads) first, then each chunk's scans and
    // stores in order. `pending` holds the current chunk's loaded scan inputs.
    std::map<const Node*, std::string> pending;
    if (p.chunks == 1) setup_chunk(start, loop.body, "");
    ve.out = &loop.body;
    // The chunk's last element in scan order: it carries into the next chunk.
    const TExpr* last_col = b.op(TOp::Sub, {block_r, b.i(1)});
    const TExpr* edge = b.op(TOp::Eq, {local, tile_reversed ? b.i(0) : last_col});
    ve.on_reduce = [&](const Node* scan) -> const TExpr* {
      bool fp = is_floating(scan->dtype);
      const TExpr* c = b.var(carry.at(scan));
      const TExpr* zero = fp ? b.f(0.0) : b.i(0);
      std::string name = ve.fresh(ValueEmitter::value_name(scan->op));
      if (p.order == Order::AtenColumns) {
        // acc = op(acc, row k), row k picked from the chunk by a masked sum (exact: one value plus zeros).
        std::string in = ve.fresh("scan_in");
        loop.body.push_back(TileBuilder::assign(in, scan_input(scan)));
        loop.body.push_back(TileBuilder::assign(
            name, b.zeros("[BLOCK_R, BLOCK_I]", fp ? DType::Float32 : DType::Int64)));
        TStmt fold{TStmtKind::For};
        fold.var = "k";
        fold.start = b.i(0);
        fold.stop = block_r;
        fold.step = b.i(1);
        fold.unroll = true;
        const TExpr* at_k = b.op(TOp::Eq, {local, b.var("k")});
        const TExpr* row = b.reduce(TOp::Sum, b.op(TOp::Where, {at_k, b.var(in), zero}), 0);
        fold.body.push_back(TileBuilder::assign(carry.at(scan), combine(scan, c, row)));
        fold.body.push_back(TileBuilder::assign(name, b.op(TOp::Where, {at_k, c, b.var(name)})));
        loop.body.push_back(std::move(fold));
        return b.var(name);
      }
      const TExpr* s;
      if (aten && fp) {
        // ATen adds the previous tile's total into the tile's first element, then runs the levels.
        const TExpr* first = b.op(TOp::Eq, {local, tile_reversed ? last_col : b.i(0)});
        std::string in;
        if (pending.count(scan)) {
          in = pending.at(scan);
        } else {
          in = ve.fresh("scan_in");
          loop.body.push_back(TileBuilder::assign(in, scan_input(scan)));
        }
        const TExpr* seeded = b.op(TOp::Where, {first, combine(scan, b.var(in), c), b.var(in)});
        s = aten_tile(scan, seeded);
      } else {
        s = b.scan(tile_op(scan), scan_input(scan), scan_axis, tile_reversed);
        s = scan->op == Op::Cumsum ? b.add(c, s) : b.mul(c, s);
      }
      loop.body.push_back(TileBuilder::assign(name, s));
      if (gather_carry(scan)) {
        const TExpr* at_edge = b.full("[BLOCK_M, BLOCK_R]", tile_reversed ? b.i(0) : last_col, DType::Int32);
        loop.body.push_back(TileBuilder::assign(carry.at(scan), b.call("tl.gather", {b.var(name), at_edge, b.i(1)})));
      } else {
        const TExpr* last = b.op(TOp::Where, {edge, b.var(name), zero});
        loop.body.push_back(TileBuilder::assign(carry.at(scan), b.reduce(TOp::Sum, last, scan_axis)));
      }
      return widened(scan, b.var(name));
    };
    if (p.chunks == 1) {
      store_outputs();
    } else {
      struct Chunk {
        const TExpr* index;
        const TExpr* mask;
        std::map<const Node*, std::string> in;
        ValueEmitter::Cache cache;
      };
      std::vector<Chunk> chunks;
      for (int64_t u = 0; u < p.chunks; ++u) {
        ve.clear_cache();
        pending.clear();
        std::string suffix = u == 0 ? "" : std::to_string(u);
        const TExpr* offset = u == 1 ? block_r : b.mul(b.i(u), block_r);
        setup_chunk(u == 0 ? start : b.add(start, offset), loop.body, suffix);
        for (auto* n : g.nodes) {
          if (op_kind(n->op) != OpKind::Scan || !is_floating(n->dtype)) continue;
          std::string in = ve.fresh("scan_in");
          loop.body.push_back(TileBuilder::assign(in, scan_input(n)));
          pending[n] = in;
        }
        chunks.push_back({ve.index[axis], ve.axis_mask[scan_axis], pending, ve.cache()});
      }
      for (auto& c : chunks) {
        ve.set_cache(c.cache);
        pending = c.in;
        ve.index[axis] = c.index;
        ve.axis_mask[scan_axis] = c.mask;
        store_outputs();
      }
    }
    body.push_back(std::move(loop));
    ve.out = &body;
  }
  // Eager rounds a producer's product before the scan adds it: no multiply-add may become one fma.
  if (aten) job.launch.fp_fusion = false;
}

}  // namespace tz
