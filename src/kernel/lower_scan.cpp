// Scan kernels (cumsum, cumprod along one axis): a 2-D tile, as for reductions. When the scan axis is
// innermost ("rows"), tile axis 0 walks BLOCK_M rows and axis 1 the row; otherwise ("columns") axis 0 walks
// the scan axis and axis 1 BLOCK_I inner columns, and each program owns one outer index. A row that fits
// one tile is scanned in registers ("persistent"); a longer one is walked in chunks of BLOCK_R (from the end
// for a reverse scan), each chunk scanned by tl.cumsum / tl.cumprod and combined with a carry, the last value
// of the chunk before. Every value of the kernel (producers, scans, consumers) is computed chunk by chunk,
// so the input is read once and each output written once. Floats accumulate in float32, integers in int64.
#include <algorithm>
#include <map>

#include "kernel/lower_kinds.h"

namespace tz {

namespace {

const int64_t kMaxRowTile = 4096;  // elements of one row scanned in registers
const int64_t kMaxTile = 8192;     // elements held by one program

struct Plan {
  bool rows = true;              // the scan axis is innermost
  bool persistent = true;
  int64_t m = 1, r = 1, i = 1;   // outer, scanned, inner sizes
  int64_t block_m = 1, block_r = 1, block_i = 1;
  std::vector<int> outer, inner;  // representative dims before and after the scan axis
};

}  // namespace

void lower_scan(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const int axis = static_cast<int>(g.axes.at(0));
  const int rank = static_cast<int>(g.space.size());
  TZ_ASSERT(g.space[axis] > 1, "a scan over a unit dim reached lowering");
  bool reverse = false;
  for (auto* n : g.nodes) {
    if (op_kind(n->op) == OpKind::Scan) reverse = n->attr.ints[1] != 0;
  }
  for (auto* o : g.outputs) {
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
  p.rows = p.inner.empty();
  if (p.rows) {
    p.persistent = next_pow2(p.r) <= kMaxRowTile;
    p.block_r = p.persistent ? next_pow2(p.r) : 2048;
    p.block_m = p.persistent ? std::clamp<int64_t>(kMaxRowTile / p.block_r, 1, next_pow2(p.m)) : 1;
  } else {
    p.block_i = std::min<int64_t>(next_pow2(p.i), 64);
    p.persistent = next_pow2(p.r) * p.block_i <= kMaxTile;
    p.block_r = p.persistent ? next_pow2(p.r) : std::max<int64_t>(1, 4096 / p.block_i);
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
  const TExpr* local = b.expand(b.arange(block_r), along);
  auto setup_chunk = [&](const TExpr* start, std::vector<TStmt>& out) {
    out.push_back(TileBuilder::assign("r", start ? b.add(start, local) : local));
    const TExpr* r = b.var("r");
    ve.axis_mask[scan_axis] = nullptr;
    if (p.r % p.block_r != 0) {
      // A reverse walk starts at the end, so its one partial chunk is the last, at the front of the row.
      const TExpr* in_row = start && reverse ? b.op(TOp::Ge, {r, b.i(0)}) : b.lt(r, R);
      out.push_back(TileBuilder::assign("r_mask", in_row));
      ve.axis_mask[scan_axis] = b.var("r_mask");
    }
    ve.index[axis] = r;
    ve.axis_of[axis] = scan_axis;
  };

  // The value to scan, masked lanes set to the scan's neutral element, integers widened to int64.
  auto scan_input = [&](const Node* scan) {
    const Node* x = scan->src[0];
    const TExpr* v = ve.value(x, group_map(g, x));
    bool fp = is_floating(x->dtype);
    if (!fp) v = b.cast(v, DType::Int64);
    const TExpr* one = fp ? b.f(1.0) : b.i(1);
    const TExpr* neutral = scan->op == Op::Cumsum ? (fp ? b.f(0.0) : b.i(0)) : one;
    const TExpr* mask = b.band(ve.axis_mask[0], ve.axis_mask[1]);
    if (mask) v = b.op(TOp::Where, {mask, v, neutral});
    return v;
  };
  auto tile_op = [](const Node* scan) { return scan->op == Op::Cumsum ? TOp::Cumsum : TOp::Cumprod; };

  if (p.persistent) {
    setup_chunk(nullptr, body);
    ve.on_reduce = [&](const Node* scan) -> const TExpr* {
      return b.scan(tile_op(scan), scan_input(scan), scan_axis, reverse);
    };
    for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
  } else {
    // One carry per scan, set before the loop to the neutral element.
    std::map<const Node*, std::string> carry;
    for (auto* n : g.nodes) {
      if (op_kind(n->op) != OpKind::Scan) continue;
      bool fp = is_floating(n->dtype);
      std::string name = ve.fresh("carry");
      const TExpr* init = n->op == Op::Cumsum ? (fp ? b.f(0.0) : b.i(0)) : (fp ? b.f(1.0) : b.i(1));
      body.push_back(TileBuilder::assign(name, b.full(carry_shape, init, fp ? DType::Float32 : DType::Int64)));
      carry[n] = name;
    }
    TStmt loop{TStmtKind::For};
    loop.var = "r0";
    loop.start = b.i(0);
    loop.stop = R;
    loop.step = block_r;
    const TExpr* start = b.var("r0");
    if (reverse) start = b.op(TOp::Sub, {b.op(TOp::Sub, {R, block_r}), start});
    setup_chunk(start, loop.body);
    ve.out = &loop.body;
    // The chunk's last element in scan order: it carries into the next chunk.
    const TExpr* edge = b.op(TOp::Eq, {local, reverse ? b.i(0) : b.op(TOp::Sub, {block_r, b.i(1)})});
    ve.on_reduce = [&](const Node* scan) -> const TExpr* {
      bool fp = is_floating(scan->dtype);
      const TExpr* c = b.var(carry.at(scan));
      const TExpr* s = b.scan(tile_op(scan), scan_input(scan), scan_axis, reverse);
      s = scan->op == Op::Cumsum ? b.add(c, s) : b.mul(c, s);
      std::string name = ve.fresh(ValueEmitter::value_name(scan->op));
      loop.body.push_back(TileBuilder::assign(name, s));
      const TExpr* last = b.op(TOp::Where, {edge, b.var(name), fp ? b.f(0.0) : b.i(0)});
      loop.body.push_back(TileBuilder::assign(carry.at(scan), b.reduce(TOp::Sum, last, scan_axis)));
      return b.var(name);
    };
    for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
    body.push_back(std::move(loop));
    ve.out = &body;
  }
  int64_t tile = (p.rows ? p.block_m : p.block_i) * p.block_r;
  job.launch.num_warps = static_cast<int>(std::clamp<int64_t>(tile / 512, 1, 8));
}

}  // namespace tz
