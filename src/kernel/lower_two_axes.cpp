// Reductions of one space over two disjoint sets of axes (Group::axes and Group::axes2, fuse's two-axes merge) in
// one kernel that reads each element once. The space's dims fall in three classes: reduced by the one set, by the
// other, kept by both (K). One set is the "looped" class C, the other the "row" class R:
//   - a program owns BLOCK_R rows of R (and one K index, or BLOCK_L of K) and walks all of C in steps, so the
//     reductions over C complete in the program (a running value per lane);
//   - each step's tile is also reduced over its BLOCK_R rows: the partial of the reductions over R, stored at
//     work[reduction, row block, k, c];
//   - C is walked in segments; after each, the program counts in on the segment's counter (count_in), and the
//     segment's last program combines its partials in row-block order (a fixed-shape tile reduction: the result
//     does not depend on which program finishes) and stores the reductions over R, as split rows do.
// The tile is [BLOCK_R, BLOCK_L]: its lanes walk the class that the loads walk contiguously. When that is K (a
// reduction over dims 0 and one over dim 1 of [T, B, D]), C is walked one index at a time (R the longer set: more
// programs, same partial bytes); when it is a reduced set, that set is C, walked in chunks of BLOCK_L.
#include <algorithm>
#include <map>

#include "graph/view.h"
#include "kernel/lower_kinds.h"

namespace tz {

namespace {

// Rows a program owns: the partials are 1/BLOCK_R of the input's elements (fp32), written once and read once.
const int64_t kRowBlock = 64;
// A segment's last program reads at most about this many bytes of partials (one program's read: a whole
// [2047, 127 x 2048] reduction's 32 x 127 x 64 partials per column block would be 1 MB).
const int64_t kSegmentBytes = 1024 * 1024;
// The finisher combines partials in blocks of this many row blocks (a [BLOCK_P, BLOCK_L] tile).
const int64_t kFinishBlock = 64;

}  // namespace

void lower_two_axes(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  const int rank = static_cast<int>(g.space.size());
  // Maps of values reduced over each set: group_map of the group seen with that set as its axes.
  Group g1 = g, g2 = g;
  g1.axes2.clear();
  g2.axes = g.axes2;
  g2.axes2.clear();
  std::vector<int> cls(static_cast<size_t>(rank), 0);  // 1: axes, 2: axes2, 0: kept by both
  for (int64_t d : g.axes) cls[static_cast<size_t>(d)] = 1;
  for (int64_t d : g.axes2) cls[static_cast<size_t>(d)] = 2;
  std::map<const Node*, int> set_of;  // 0: full-size; else the set the value is reduced over
  for (const Node* n : g.nodes) {
    int s = 0;
    if (op_kind(n->op) == OpKind::Reduce) {
      s = n->attr.ints == g.axes ? 1 : 2;
    } else {
      for (const Node* src : n->src) {
        auto it = set_of.find(view_root(src));
        if (it != set_of.end()) s = std::max(s, it->second);
      }
    }
    set_of[n] = s;
  }
  auto map_of = [&](const Node* n) { return group_map(set_of.at(n) == 2 ? g2 : g1, n); };
  for (const Node* o : g.outputs) {
    ve.collect(o, map_of(o));
    ve.collect_store(o, map_of(o));
  }
  ve.merge_dims([&](int d) {
    int next = d + 1;
    while (next < rank && g.space[static_cast<size_t>(next)] == 1) ++next;
    return next < rank && cls[static_cast<size_t>(d)] == cls[static_cast<size_t>(next)];
  });
  std::vector<int> reps[3];
  int64_t size[3] = {1, 1, 1};
  for (int d = 0; d < rank; ++d) {
    if (ve.rep()[static_cast<size_t>(d)] != d) continue;
    reps[cls[static_cast<size_t>(d)]].push_back(d);
    size[cls[static_cast<size_t>(d)]] *= ve.run_size(d);
  }
  // The class the loads walk contiguously goes across the lanes.
  int lane = -1;
  for (size_t k = 0; k < ve.accesses().size() && lane < 0; ++k) {
    if (ve.access_is_store()[k]) continue;
    for (int d = rank - 1; d >= 0; --d) {
      if (ve.rep()[static_cast<size_t>(d)] == d && ve.accesses()[k][static_cast<size_t>(d)] == 1) {
        lane = cls[static_cast<size_t>(d)];
        break;
      }
    }
  }
  if (lane < 0) lane = size[0] > 1 ? 0 : 1;
  const bool k_lanes = lane == 0;
  const int rc = k_lanes ? (size[1] >= size[2] ? 1 : 2) : 3 - lane;  // the row class
  const int cc = 3 - rc;                                            // the looped class
  const int64_t nr = size[rc], nc = size[cc], nk = size[0];
  const int64_t nl = k_lanes ? nk : nc;
  const int64_t block_l = std::min(next_pow2(nl), 256 / std::max<int64_t>(narrowest_load(g), 1));
  const int64_t block_r = std::min(next_pow2(nr), kRowBlock);
  const int64_t row_blocks = (nr + block_r - 1) / block_r;
  const int64_t k_groups = k_lanes ? (nk + block_l - 1) / block_l : nk;

  std::vector<const Node*> row_reds, col_reds;  // over C (complete in a program); over R (partials)
  for (const Node* n : g.nodes) {
    if (op_kind(n->op) != OpKind::Reduce) continue;
    (set_of.at(n) == cc ? row_reds : col_reds).push_back(n);
  }
  const int64_t slots = static_cast<int64_t>(col_reds.size());
  // Steps of C per segment (one index, or one chunk of BLOCK_L), so that a segment's partials stay in budget.
  const int64_t step_bytes = row_blocks * block_l * 4 * std::max<int64_t>(slots, 1);
  const int64_t c_steps = k_lanes ? nc : (nc + block_l - 1) / block_l;
  const int64_t seg_steps = std::clamp<int64_t>(kSegmentBytes / step_bytes, 1, c_steps);
  const int64_t segments = (c_steps + seg_steps - 1) / seg_steps;
  const int64_t step = k_lanes ? 1 : block_l;  // (elements of C per step)

  const TExpr* RB = job.constexpr_param("ROW_BLOCKS", row_blocks);
  const TExpr* NR = job.constexpr_param("NR", nr);
  const TExpr* NC = job.constexpr_param("NC", nc);
  const TExpr* NK = job.constexpr_param("NK", nk);
  const TExpr* BR = job.constexpr_param("BLOCK_R", block_r);
  const TExpr* BL = job.constexpr_param("BLOCK_L", block_l);
  const TExpr* SEG = job.constexpr_param("SEGMENT", seg_steps * step);
  const TExpr* SEGS = job.constexpr_param("SEGMENTS", segments);
  partials_scratch(job, false, k_groups * segments);
  job.launch.setup.push_back("work = torch.empty((" + std::to_string(std::max<int64_t>(slots, 1) * row_blocks * nk * nc) +
                             ",), device={device}, dtype=torch.float32)");
  job.launch.grid = {std::to_string(k_groups * row_blocks)};
  const int64_t tile = block_r * block_l;
  job.launch.num_warps = static_cast<int>(std::clamp<int64_t>(tile / 512, 1, 8));

  auto& body = job.kernel.body;
  ve.out = &body;
  ve.axis_of.assign(static_cast<size_t>(rank), -1);
  ve.axis_mask.assign(2, nullptr);
  const TExpr* pid = b.program_id(0);
  body.push_back(TileBuilder::comment(
      "ROW_BLOCKS programs per " + std::string(k_lanes ? "column block" : "outer index") +
      ": BLOCK_R rows each, walking the looped dims in SEGMENTS segments of SEGMENT"));
  body.push_back(TileBuilder::assign("group", b.op(TOp::FloorDiv, {pid, RB})));
  body.push_back(TileBuilder::assign("row_block", b.op(TOp::Mod, {pid, RB})));
  body.push_back(TileBuilder::assign(
      "rows", b.add(b.mul(b.var("row_block"), BR), b.expand(b.arange(BR), ":, None"))));
  if (nr % block_r != 0) {
    body.push_back(TileBuilder::assign("row_mask", b.lt(b.var("rows"), NR)));
    ve.axis_mask[0] = b.var("row_mask");
  }
  ve.split_index(b.var("rows"), reps[rc], 0, "i");
  const TExpr* kflat = b.var("group");
  if (k_lanes) {
    body.push_back(TileBuilder::assign(
        "ks", b.add(b.mul(b.var("group"), BL), b.expand(b.arange(BL), "None, :"))));
    kflat = b.var("ks");
    if (nk % block_l != 0) {
      body.push_back(TileBuilder::assign("k_mask", b.lt(kflat, NK)));
      ve.axis_mask[1] = b.var("k_mask");
    }
    ve.split_index(kflat, reps[0], 1, "k");
  } else if (!reps[0].empty()) {
    ve.split_index(kflat, reps[0], -1, "k");
  }
  const TExpr* lane_mask = ve.axis_mask[1];  // (k_lanes: along K; else set per step along C)
  // Sets the index of C for a step starting at `c0` (a scalar); returns the flat index of C.
  auto c_index = [&](std::vector<TStmt>& out, const TExpr* c0) -> const TExpr* {
    ve.out = &out;
    if (k_lanes) {
      ve.split_index(c0, reps[cc], -1, "c");
      return c0;
    }
    out.push_back(TileBuilder::assign("cols", b.add(c0, b.expand(b.arange(BL), "None, :"))));
    if (nc % block_l != 0) {
      out.push_back(TileBuilder::assign("col_mask", b.lt(b.var("cols"), NC)));
      ve.axis_mask[1] = b.var("col_mask");
    }
    ve.split_index(b.var("cols"), reps[cc], 1, "c");
    return b.var("cols");
  };
  auto fp = [](const Node* red) { return is_floating(red->src[0]->dtype); };
  auto reduce_value = [&](const Node* red, const TExpr* v, int axis) {
    if (red->op == Op::Prod) job.kernel.needs_mul_combine = true;
    if ((red->op == Op::Max || red->op == Op::Min) && fp(red)) {
      job.kernel.needs_nan_combine = true;
      return b.reduce(red->op == Op::Max ? TOp::NanMax : TOp::NanMin, v, axis);
    }
    return b.reduce(red->op == Op::Sum ? TOp::Sum : red->op == Op::Prod ? TOp::Prod
                    : red->op == Op::Max ? TOp::Max : TOp::Min, v, axis);
  };
  // work[slot, row block, k, c]
  auto work_at = [&](int64_t k, const TExpr* row_block, const TExpr* c) {
    const TExpr* block = k == 0 ? row_block : b.add(b.mul(b.i(k), RB), row_block);
    const TExpr* at = b.add(b.mul(b.add(b.mul(block, NK), kflat), NC), c);
    return b.add(b.var("work_ptr"), at);
  };
  const std::string tile_shape = "[BLOCK_R, BLOCK_L]";
  std::vector<std::string> accs;
  for (const Node* red : row_reds) {
    std::string acc = ve.fresh("acc");
    accs.push_back(acc);
    body.push_back(TileBuilder::assign(acc, b.full(tile_shape, neutral(b, red->op, DType::Float32), acc_type(red->src[0]))));
  }
  std::map<const Node*, const TExpr*> done;
  ve.on_reduce = [&](const Node* n) { return done.at(n); };
  std::vector<int> full_map(static_cast<size_t>(rank));
  for (int d = 0; d < rank; ++d) full_map[static_cast<size_t>(d)] = g.space[static_cast<size_t>(d)] == 1 ? -1 : d;

  TStmt segs{TStmtKind::For};
  segs.var = "seg";
  segs.start = b.i(0);
  segs.stop = SEGS;
  segs.step = b.i(1);
  TStmt loop{TStmtKind::For};
  loop.var = "c0";
  loop.start = b.mul(b.var("seg"), SEG);
  loop.stop = b.op(TOp::Min2, {b.add(b.mul(b.var("seg"), SEG), SEG), NC});
  loop.step = k_lanes ? b.i(1) : BL;
  ve.clear_cache();
  const TExpr* cflat = c_index(loop.body, b.var("c0"));
  ve.out = &loop.body;
  for (size_t k = 0; k < row_reds.size(); ++k) {
    const Node* red = row_reds[k];
    const TExpr* v = ve.value(red->src[0], full_map);
    if (!k_lanes && ve.axis_mask[1]) v = b.op(TOp::Where, {ve.axis_mask[1], v, neutral(b, red->op, DType::Float32)});
    loop.body.push_back(TileBuilder::assign(accs[k], b.op(lane_combine(red->op, fp(red)), {b.var(accs[k]), v})));
  }
  for (int64_t k = 0; k < slots; ++k) {
    const Node* red = col_reds[static_cast<size_t>(k)];
    const TExpr* v = ve.value(red->src[0], full_map);
    if (ve.axis_mask[0]) v = b.op(TOp::Where, {ve.axis_mask[0], v, neutral(b, red->op, DType::Float32)});
    std::string part = ve.fresh("partial");
    loop.body.push_back(TileBuilder::assign(part, reduce_value(red, v, 0)));
    loop.body.push_back(TileBuilder::store(work_at(k, b.var("row_block"), cflat), b.var(part), ve.axis_mask[1]));
  }
  for (const Node* o : g.outputs) {
    if (set_of.at(o) == 0) ve.store(o, map_of(o), ve.value(o, map_of(o)));
  }
  const TExpr* loop_lane_mask = ve.axis_mask[1];
  segs.body.push_back(std::move(loop));
  segs.body.push_back(TileBuilder::comment("this segment's partials are stored: count in on its counter"));
  TStmt finish = count_in(segs.body, b, job.arena, b.add(b.var("count_ptr"), b.add(b.mul(b.var("group"), SEGS), b.var("seg"))),
                          RB, "the segment's last program: combine its partials in row-block order; zero the counter "
                              "for the next call");
  // The finisher: each step of the segment, every row block's partial ([BLOCK_P, BLOCK_L] tiles of row blocks).
  {
    const int64_t block_p = std::min(next_pow2(row_blocks), kFinishBlock);
    const TExpr* BP = job.constexpr_param("BLOCK_P", block_p);
    TStmt fl{TStmtKind::For};
    fl.var = "c0";
    fl.start = b.mul(b.var("seg"), SEG);
    fl.stop = b.op(TOp::Min2, {b.add(b.mul(b.var("seg"), SEG), SEG), NC});
    fl.step = k_lanes ? b.i(1) : BL;
    ve.clear_cache();
    if (!k_lanes) ve.axis_mask[1] = nullptr;
    const TExpr* fc = c_index(fl.body, b.var("c0"));
    const TExpr* mask_l = k_lanes ? lane_mask : ve.axis_mask[1];
    std::vector<std::string> facc;
    for (int64_t k = 0; k < slots; ++k) {
      const Node* red = col_reds[static_cast<size_t>(k)];
      facc.push_back(ve.fresh("acc"));
      fl.body.push_back(TileBuilder::assign(facc.back(), b.full("[BLOCK_P, BLOCK_L]", neutral(b, red->op, DType::Float32), DType::Float32)));
    }
    TStmt ql{TStmtKind::For};
    ql.var = "q0";
    ql.start = b.i(0);
    ql.stop = RB;
    ql.step = BP;
    ql.body.push_back(TileBuilder::assign("q", b.add(b.var("q0"), b.expand(b.arange(BP), ":, None"))));
    const TExpr* qmask = row_blocks % block_p != 0 ? b.lt(b.var("q"), RB) : nullptr;
    for (int64_t k = 0; k < slots; ++k) {
      const Node* red = col_reds[static_cast<size_t>(k)];
      TExpr load{TOp::Load, "volatile"};
      load.args = {work_at(k, b.var("q"), fc)};
      const TExpr* m = b.band(qmask, mask_l);
      if (m) load.args.insert(load.args.end(), {m, neutral(b, red->op, DType::Float32)});
      std::string pv = ve.fresh("partials");
      ql.body.push_back(TileBuilder::assign(pv, job.arena.make(load)));
      ql.body.push_back(TileBuilder::assign(facc[static_cast<size_t>(k)],
                                            b.op(lane_combine(red->op, fp(red)), {b.var(facc[static_cast<size_t>(k)]), b.var(pv)})));
    }
    fl.body.push_back(std::move(ql));
    ve.out = &fl.body;
    for (int64_t k = 0; k < slots; ++k) {
      const Node* red = col_reds[static_cast<size_t>(k)];
      std::string name = ve.fresh(ValueEmitter::value_name(red->op));
      fl.body.push_back(TileBuilder::assign(name, reduce_value(red, b.var(facc[static_cast<size_t>(k)]), 0)));
      done[red] = b.var(name);
    }
    for (const Node* o : g.outputs) {
      if (set_of.at(o) == rc) ve.store(o, map_of(o), ve.value(o, map_of(o)));
    }
    finish.body.push_back(std::move(fl));
  }
  segs.body.push_back(std::move(finish));
  body.push_back(std::move(segs));
  // The reductions over C are complete: each lane's value (k_lanes: the lanes are the outputs' K).
  ve.out = &body;
  ve.clear_cache();
  ve.axis_mask[1] = k_lanes ? lane_mask : nullptr;
  (void)loop_lane_mask;
  for (size_t k = 0; k < row_reds.size(); ++k) {
    const Node* red = row_reds[k];
    if (k_lanes) {
      done[red] = b.var(accs[k]);
    } else {
      std::string name = ve.fresh(ValueEmitter::value_name(red->op));
      body.push_back(TileBuilder::assign(name, reduce_value(red, b.var(accs[k]), 1)));
      done[red] = b.var(name);
    }
  }
  for (const Node* o : g.outputs) {
    if (set_of.at(o) == cc) ve.store(o, map_of(o), ve.value(o, map_of(o)));
  }
  ve.on_reduce = nullptr;
}

}  // namespace tz
