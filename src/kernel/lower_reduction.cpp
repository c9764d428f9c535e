// Reduction kernels: a 2-D tile over (kept, reduced) dims. When the reduced dims are innermost ("rows"), tile
// axis 0 walks BLOCK_M rows and axis 1 the row; otherwise ("columns": reduced dims followed by kept inner dims)
// axis 0 walks the reduced dims and axis 1 BLOCK_I inner columns, and each program owns one outer index.
// Reduced values keep their tile axis (keep_dims), so they broadcast back over the tile with no reshaping.
// Rows that fit in one tile are reduced in registers ("persistent"); longer ones loop over chunks, once per
// stage of reductions (those that do not read each other share a loop) and once more for full-size outputs.
// Looped rows read more than once run on a persistent grid (two programs per multiprocessor, each walking rows):
// with fewer rows in flight, a row's later passes find it in L2 more often (measured on the H200, now with
// tests/gpu/rows_experiment.py: 8192 x 50257 log_softmax from 2.04 to 1.47 ms). Rows read once (a sum, an
// argmax) get one program per row tile. Rows of 40000 or more read more than once are split over programs
// that run together ("cooperative rows", below), so that they are read from memory once; so are the long column
// blocks of an fp32 softmax over a non-innermost dim ("cooperative column blocks"). A few long rows of
// argmax/argmin/max/min are split over programs of which the last to finish combines the row ("split rows").
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "graph/view.h"
#include "kernel/lower_kinds.h"
#include "kernel/row_forms.h"

namespace tz {

namespace {

const int64_t kMaxTile = 16384;  // elements held by one program in the persistent form
// Rows read more than once (a norm, a softmax) are held whole up to kHeldRowMax elements, on 32 warps past
// kMaxTile: one read instead of three. Measured on the H200 with tests/gpu/tiles_experiment.py (2026-12-04, kernel
// time, L2 flushed, fraction of the bandwidth floor): layer norm of fp32 [4096, 32768] 0.93 held on 32 warps (0.71
// on 16, 0.63 on 8) against 0.70 looped three times on the persistent grid; fp16 [8192, 32768] 0.82 against 0.77;
// fp32 [8192, 16384] held on 16 warps 0.96 (32 warps: 0.85).
const int64_t kRowLaneElems = 8;  // elements of one row a lane reduces, in held rows loaded an element at a time
const int64_t kLoopChunk = 8192;  // chunk of a looped row (with 16 warps)
const int64_t kLoopProgramsPerSm = 2;  // persistent grid of looped rows
// A lane's serial floating sum over at most this many chunks is left plain; over more it is compensated, once
// per kCompensateEvery chunks (a plain partial sum of that many chunks is added into the compensated one).
const int64_t kPlainChunks = 16;
const int64_t kPeelChunk = 2048;  // peeled rows (plan_peel): chunk and warps
const int kPeelWarps = 4;
const int64_t kDotGroup = 4;  // products a lane adds in fp32 before its fp64 accumulator (peeled mat-vec rows)
// Cooperative rows (below): rows at least this long, split into chunks of kCoopChunk (kCoopLongChunk from
// kCoopLongRow), with one warp per 1024 elements (the fastest forms measured on the H200 by
// tests/gpu/rows_experiment.py: 8192 x 50257 log_softmax 1.21 ms against 1.46 ms for three passes on the
// persistent grid; 1024 x 262144 0.63 ms, 81% of the bandwidth floor, against 1.04 ms). Shorter rows stay on
// the persistent grid, whose rows in flight fit in L2: 4096 x 32768 layer norm took 0.52 ms there and 0.55 ms
// cooperatively (the corpus through tritonize bench, 2026-12-03).
const int64_t kCoopMinRow = 40000;
const int64_t kCoopChunk = 4096;
const int64_t kCoopLongRow = 131072;
const int64_t kCoopLongChunk = 8192;
const int64_t kCompensateEvery = 8;
// Split rows (below): fewer rows than kSplitMaxRows (split_reduce's kMinRows) of at least kSplitMinRow elements,
// in chunks as large as leave kSplitMinPrograms programs.
const int64_t kSplitMaxRows = 256;
const int64_t kSplitMinRow = 1 << 16;
const int64_t kSplitMinPrograms = 512;
const int64_t kSplitFinishBlock = 1024;  // partials a split row's last program combines at a time
// Split columns (below): looped columns read one element per load (their rows not 16-byte aligned) over fewer
// than kSplitColumnPrograms column blocks are split over programs of at least kSplitColumnMinChunk rows, as many
// as make about kSplitColumnPrograms programs. Measured on the H200 (docs/RESULTS.md, one program per column
// block of [64, 64] on 8 warps): aligned columns ran at 87-100% of the bandwidth floor on 256 to 512 programs
// (gemm_vecmat, red_amax_dim0, loss_hinge_rowwise_relu), rows 30011 or 16383 elements apart at 45% on 469
// (gemm_matvec_transposed) and 23% on 256 (red_prod_lastdim_whole_transposed). Split, their tiles are
// [kSplitColumnRows, BLOCK_I]: tests/gpu/tiles_experiment.py --only matvec (2026-12-04, kernel time, A.t() @ x over
// [32003, 30011] fp32, eager 0.97 ms): [32, 64] on 4 warps in 18 parts (8442 programs) 0.98 ms, 92% of the floor;
// [64, 64] on 8 warps in 5 parts (2345 programs) 1.45 ms, in 16 parts 1.50; unsplit 1.21 ms.
const int64_t kSplitColumnPrograms = 8192;
const int64_t kSplitColumnMinChunk = 512;
const int64_t kSplitColumnRows = 32;
// Transposed rows (plan_reduction): a program's rows make a segment of kTransposedSegmentBytes of the operand read
// along them, in chunks of kTransposedChunk of the row; only with at least kTransposedMinTiles such tiles (fewer
// programs would leave multiprocessors idle: not measured).
const int64_t kTransposedSegmentBytes = 128;
const int64_t kTransposedChunk = 64;
const int64_t kTransposedMinTiles = 256;
// Argmax/argmin tiles (arg_tiles below): kArgLaneBytes of input per thread and chunk, column tiles
// kArgColumnBytes wide, and about kArgGridWarps warps over a column grid (62 per multiprocessor of an H200).
const int64_t kArgLaneBytes = 64;
const int64_t kArgColumnBytes = 512;
const int64_t kArgGridWarps = 8192;
// Columns (reduced dims followed by kept inner dims, tile [BLOCK_R, BLOCK_I]). Measured on the H200 with
// tests/gpu/colsoftmax_experiment.py (2026-12-03, kernel time, L2 flushed): a row segment of 256 bytes per
// column block (64 fp32 or 128 16-bit columns; 128 fp32 columns were no faster). A column block held whole in
// registers runs with at most 4 warps: more programs resident, fewer warps meeting in each reduction across
// axis 0 (softmax over dim 1 of fp32 [64, 96, 16384], tile [128, 64]: 0.347 ms with 16 warps, 0.194 ms with 4,
// 99% of the bandwidth floor).
// A column block of at most kColumnOneWarpTile elements held whole runs on one warp: its reductions across axis 0
// stay in registers and lanes (shuffles), with no exchange through shared memory. tests/gpu/tiles_experiment.py
// (form cecols, 2026-12-04, kernel time, L2 flushed): cross entropy's max, sum of exp and target logit over the
// class dim of fp16 [128, 21, 512 * 512], tile [32, 128], 2.80 ms on 4 warps, 0.54 ms (84% of the floor) on one;
// [32, 64] on one warp 0.57 ms, [32, 256] 0.69 ms on one and 1.11 ms on two.
const int64_t kColumnSegmentBytes = 256;
const int64_t kColumnWarps = 4;
const int64_t kColumnOneWarpTile = 4096;
// A looped softmax over columns takes its max and sum of exp in one pass (online, below) over chunks of
// kOnlineChunkRows rows (then one pass writes): fp32 [64, 1000, 2048] log_softmax 0.52 ms in three passes of
// [64, 64] chunks, 0.39 ms online with [32, 64] chunks and 4 warps; bf16 [32, 1024, 4096] 0.229 -> 0.218 ms
// ([32, 128], 8 warps). Each lane's sum adds positive terms, one per chunk (relative error at most one
// rounding per chunk): up to kOnlineMaxChunks chunks (6e-5 at worst in fp32), longer columns take three passes
// with the compensated sum.
const int64_t kOnlineChunkRows = 32;
const int64_t kOnlineMaxChunks = 1024;
// Cooperative column blocks (below): an fp32 softmax's column block split over GROUPS programs of
// [kCoopColumnChunk, 64] on kColumnWarps warps, read once and written once. Measured on the H200 with
// tests/gpu/colsoftmax_experiment.py (form coop, kernel time, L2 flushed): fp32 [64, 1000, 2048] log_softmax over
// dim 1 in 8 groups 0.325 ms, 77% of the bandwidth floor, against 0.389 ms online ([512, 32] on 8 warps: 0.322 ms,
// the same within noise; [256, 64] on 8 warps 0.528 ms: one program per multiprocessor). bf16 [32, 1024, 4096]
// stayed slower cooperatively (0.245 ms at best against 0.218 ms online): a program's registers bound the elements
// it holds (fp32 once loaded), so 16-bit programs carry half the bytes over the same exchange, and the exchange
// (store, atomic, wait, load of the partials) is paid per program; so only columns whose full-size tensors are
// all 4-byte take this form. The sweep of session 6 (colsoftmax_experiment.py --sweep, fp32 [M, R, 2048] with
// M * R about 64000, fraction of the floor, coop [128, 64] or [256, 32] against online [32, 64]): R = 384 0.80 vs
// 0.65, 512 0.88 vs 0.64, 768 0.83 vs 0.65, 1000 0.77 vs 0.64, 2048 0.76 vs 0.56, 4096 0.73 vs 0.63, 8192 0.68 vs
// 0.51 (bf16 R = 1024 / 2048: online 0.58 / 0.60 against coop 0.43 / 0.40). So from kCoopColumnMinGroups to
// kCoopColumnMaxGroups groups (R from 257 to 8192, every looped column measured) is this form.
const int64_t kCoopColumnChunk = 128;
// Cooperative column blocks whose loads Triton cannot vectorize (rows not 16-byte aligned: every element its own
// load and its own 64-bit address) ran out of registers at [128, 64] on 4 warps (255 a thread, two programs a
// multiprocessor). tests/gpu/colsoftmax_experiment.py --corpus (2026-12-04, kernel time, softmax over dim 1 of
// randn(2999, 179999).t(), 2.16 GB): [128, 64] on 4 warps 2.92 ms; [256, 32] on 8 warps 2.21 ms (128 registers),
// [64, 32] on 2 2.24, [128, 32] on 4 2.51; the online form's best [64, 64] on 8 2.20; eager 7.04, and a plain
// transposing copy of the input 4.10.
const int64_t kCoopScalarColumnChunk = 256;
const int64_t kCoopScalarColumnWidth = 32;
const int kCoopScalarColumnWarps = 8;
const int64_t kCoopColumnMinGroups = 3;
const int64_t kCoopColumnMaxGroups = 64;

TOp reduce_op(Op op) {
  switch (op) {
    case Op::Sum: return TOp::Sum;
    case Op::Prod: return TOp::Prod;
    case Op::Max: return TOp::Max;
    case Op::Min:
    case Op::ArgMin: return TOp::Min;  // argmax/argmin find their extreme value first
    default: return TOp::Max;
  }
}

struct Plan {
  bool rows = true;           // reduced dims innermost
  bool persistent = true;
  int64_t m = 1, r = 1, i = 1;  // outer kept, reduced, inner kept sizes
  int64_t block_m = 1, block_r = 1, block_i = 1;
  std::vector<int> outer, reduced, inner;  // representative dims of each class, outer to inner
  bool one_pass = false;  // no reduction reads another and no output is full-size: each row is read once
  bool coop = false;      // cooperative rows (rows) or column blocks (columns)
  bool split = false;     // split rows or split columns
  int arg_warps = 0;      // warps of argmax/argmin tiles; 0: the usual rule (tile / 512)
  int64_t split_chunk = 0, parts = 1;  // split rows (columns): elements (rows) per program, programs per row
                                       // (column block)
  std::map<const Node*, const Node*> online;  // looped softmax columns: max -> its sum of exp, in one pass
  bool transposed = false;  // transposed rows: BLOCK_M rows make one segment of the operand read along them
  int row_warps = 0;  // warps of held rows that Triton cannot load as vectors; 0: the usual rule (tile / 512)
  int column_warps = 0;  // warps of cooperative column blocks loaded an element at a time; 0: kColumnWarps
  // Peeled rows (plan_peel): the vector (elements of 16 bytes) their whole chunks load, 0 when not peeled, and
  // the residues modulo it of the peeled loads' strides along each kernel dim.
  int64_t peel_vec = 0;
  std::vector<int64_t> peel_residues;
};

// The widest vector Triton can load the full-size loads walking kernel dim `along` with: the elements of 16
// bytes (up to 16 / elem_bytes) that divide each such load's stride along every other dim the tile walks (a row
// stride of 151 bf16 allows 1; base pointers are taken as 16-byte aligned, as Triton specializes them).
int64_t load_vector(const ValueEmitter& ve, int along, int64_t elem_bytes) {
  int64_t vec = std::max<int64_t>(1, 16 / elem_bytes);
  const auto& acc = ve.accesses();
  const auto& store = ve.access_is_store();
  for (size_t k = 0; k < acc.size(); ++k) {
    if ((k < store.size() && store[k]) || std::abs(acc[k][static_cast<size_t>(along)]) != 1) continue;
    for (size_t d = 0; d < acc[k].size(); ++d) {
      if (static_cast<int>(d) == along || ve.rep()[d] != static_cast<int>(d) || ve.run_size(static_cast<int>(d)) <= 1) {
        continue;
      }
      while (vec > 1 && std::abs(acc[k][d]) % vec) vec /= 2;
    }
  }
  return vec;
}

// The warps of a tile of `tile` elements when no form asks for others: one per 512 elements (1024 in cooperative
// kernels), up to 16 (32 for tiles past kMaxTile).
int64_t usual_warps(int64_t tile, bool coop) {
  return std::clamp<int64_t>(tile / (coop ? 1024 : 512), 1, tile > kMaxTile ? 32 : 16);
}

// Stage of each reduction of the group: 0 when it reads no other reduction of the group (through the values it
// reduces), else one more than the latest one it reads. Reductions of one stage share a pass over the row.
std::map<const Node*, int> reduction_stages(const Group& g) {
  std::map<const Node*, int> stage;
  for (const Node* red : g.nodes) {  // topological order: a reduction's inputs come first
    if (op_kind(red->op) != OpKind::Reduce) continue;
    int st = 0;
    std::set<const Node*> seen;
    std::vector<const Node*> stack = {red->src[0]};
    while (!stack.empty()) {
      const Node* n = stack.back();
      stack.pop_back();
      if (!seen.insert(n).second) continue;
      auto it = stage.find(n);
      if (it != stage.end()) st = std::max(st, it->second + 1);
      for (auto* src : n->src) stack.push_back(src);
    }
    stage[red] = st;
  }
  return stage;
}

// A softmax's sum(exp(y - max(y))) for each floating max(y) of the group that has one: the pair that an online
// softmax computes together.
std::map<const Node*, const Node*> softmax_sums(const std::vector<const Node*>& reductions) {
  std::map<const Node*, const Node*> sums;
  for (const Node* red : reductions) {
    if (red->op != Op::Max || !is_floating(red->src[0]->dtype)) continue;
    for (const Node* s : reductions) {
      if (s->op != Op::Sum || s->src[0]->op != Op::Exp) continue;
      const Node* d = s->src[0]->src[0];
      if (d->op == Op::Sub && d->src[0] == red->src[0] && view_root(d->src[1]) == red) sums[red] = s;
    }
  }
  return sums;
}

// The kernel's form, decided from the group (nothing emitted): which dims are kept and reduced, the tile sizes,
// and how rows are walked (in registers, looped, online columns, cooperative rows, split rows).
Plan plan_reduction(const Group& g, const ValueEmitter& ve, const std::map<const Node*, int>& stage,
                    const std::vector<const Node*>& reductions) {
  auto is_reduced = [&](int d) { return std::find(g.axes.begin(), g.axes.end(), d) != g.axes.end(); };
  Plan p;
  for (int d = 0; d < static_cast<int>(g.space.size()); ++d) {
    if (ve.rep()[d] != d) continue;
    if (is_reduced(d)) p.reduced.push_back(d);
    else if (p.reduced.empty()) p.outer.push_back(d);
    else p.inner.push_back(d);
  }
  for (int d : p.outer) p.m *= ve.run_size(d);
  for (int d : p.reduced) p.r *= ve.run_size(d);
  for (int d : p.inner) p.i *= ve.run_size(d);
  // Does some full-size load walk kernel dim d contiguously? (A load broadcast along one of the tile's dims, such
  // as the vector of A.t() @ x, moves a fraction of the bytes: A^T's [30011, 32003] rows were read 30011 elements
  // apart because x walks the reduced dim contiguously, 6.9 ms on the H200 against eager's 1.0.)
  auto broadcast = [&](const std::vector<int64_t>& strides) {
    for (const auto* dims : {&p.outer, &p.reduced, &p.inner}) {
      for (int d : *dims) {
        if (ve.run_size(d) > 1 && strides[static_cast<size_t>(d)] == 0) return true;
      }
    }
    return false;
  };
  auto unit = [&](int d) {
    const auto& acc = ve.accesses();
    const auto& store = ve.access_is_store();  // (shorter when loads were collected after the last store)
    for (size_t k = 0; k < acc.size(); ++k) {
      if (!(k < store.size() && store[k]) && std::abs(acc[k][d]) == 1 && !broadcast(acc[k])) return true;
    }
    return false;
  };
  // Reduced dims that no load walks contiguously, while a kept dim is walked contiguously (a reduction over
  // the last dim of a transposed tensor): that kept dim goes across the lanes as the columns of a
  // [BLOCK_R, BLOCK_I] tile, so every load reads BLOCK_I neighbouring elements instead of one per row.
  if (p.inner.empty() && !p.reduced.empty() && !p.outer.empty()) {
    bool reduced_unit = std::any_of(p.reduced.begin(), p.reduced.end(), unit);
    auto it = std::find_if(p.outer.rbegin(), p.outer.rend(), unit);
    if (!reduced_unit && it != p.outer.rend()) {
      int d = *it;
      p.outer.erase(std::next(it).base());
      p.inner = {d};
      p.m /= ve.run_size(d);
      p.i = ve.run_size(d);
    }
  }
  // The converse: kept dims after the reduced ones that no load walks contiguously, while a reduced dim is (a
  // mean over dim 1 of x.transpose(1, 2): the reduced dim is x's last): the kept dims are rows, and the reduced
  // dim runs across the lanes. (As columns, each lane's load was 4095 elements from its neighbour's: fp16
  // [63, 4096, 4095] took 23 ms on the H200, eager 10 ms; not yet re-measured.)
  // Not when a full-size output is stored contiguously along a kept inner dim: then the store moves as many
  // bytes as the loads, and the [BLOCK_R, BLOCK_I] tile keeps both coalesced (a log_softmax over dim 1 of x.t()
  // stored its rows 13411 elements apart: 1.76 -> 3.04 ms on the H200).
  auto stored_unit = [&](int d) {  // does some store walk kernel dim d contiguously?
    const auto& acc = ve.accesses();
    const auto& store = ve.access_is_store();
    for (size_t k = 0; k < acc.size() && k < store.size(); ++k) {
      if (store[k] && std::abs(acc[k][d]) == 1) return true;
    }
    return false;
  };
  const bool full_size_output =
      std::any_of(g.outputs.begin(), g.outputs.end(), [&](const Node* o) { return o->shape == g.space; });
  if (!p.inner.empty() && std::any_of(p.reduced.begin(), p.reduced.end(), unit) &&
      std::none_of(p.inner.begin(), p.inner.end(), unit) &&
      !(full_size_output && std::any_of(p.inner.begin(), p.inner.end(), stored_unit))) {
    p.outer.insert(p.outer.end(), p.inner.begin(), p.inner.end());
    p.m *= p.i;
    p.i = 1;
    p.inner.clear();
  }
  // Several kept inner dims: the one a load walks contiguously goes last, so that it runs across the lanes (a
  // mean over dim 0 of x.transpose(1, 2) walks x's last dim, which is the view's dim 1; the output is then
  // stored with a stride, which moves far fewer bytes than the input).
  if (p.inner.size() > 1 && !unit(p.inner.back())) {
    auto it = std::find_if(p.inner.begin(), p.inner.end(), unit);
    if (it != p.inner.end()) std::rotate(it, it + 1, p.inner.end());
  }
  p.rows = p.inner.empty();
  // One pass over each row (no reduction reads another, no full-size output): nothing is read twice, so
  // the persistent grid buys no L2 hits, and one program per row lets every multiprocessor hold as many
  // rows in flight as fit (more loads outstanding).
  p.one_pass =
      std::none_of(g.outputs.begin(), g.outputs.end(), [&](const Node* o) { return o->shape == g.space; }) &&
      std::all_of(stage.begin(), stage.end(), [](const auto& rs) { return rs.second == 0; });
  int64_t segment = 64;  // columns: BLOCK_I of a 256-byte row segment
  if (p.rows) {
    p.persistent = next_pow2(p.r) <= (p.one_pass ? kMaxTile : kHeldRowMax);
    p.block_r = p.persistent ? next_pow2(p.r) : kLoopChunk;
    p.block_m = p.persistent ? std::clamp<int64_t>(4096 / p.block_r, 1, next_pow2(p.m)) : 1;
    // Transposed rows: a load walks the rows contiguously (an operand seen through .t(), the reduced dim at the
    // large stride) while another walks the row itself (else the kernel would be columns, above). Held rows put
    // few rows in a tile (one row of 4096), so the transposed operand was read one element per row and reduced
    // index: 4 bytes of each 32-byte sector a request (1 - cosine_similarity(a, b_t.t()) over [65535, 4096] fp32
    // at 0.24 of the bandwidth floor on the H200, 0.54x torch.compile). Here a program takes
    // kTransposedSegmentBytes of rows (32 fp32, 64 16-bit) in chunks of kTransposedChunk of the row: the
    // transposed operand is read in 128-byte segments (one per reduced index), the contiguous one in 16-byte
    // vectors along its rows; Triton loads each in its own layout and converts one to the other's through
    // shared memory (8 KB for [32, 64] fp32; ptxas sm_90a: 206 registers with the cosine's three compensated
    // sums, no spills). Looped, each lane reducing its chunks like any looped row (compensated past
    // kPlainChunks). Only rows read once: looped rows read more than once would read 32 rows of both operands
    // again per pass, a working set beyond L2 (not measured; such rows keep their form).
    const int64_t seg_rows = std::max<int64_t>(32, kTransposedSegmentBytes / narrowest_element(g));
    const int d_rows = p.outer.empty() ? -1 : p.outer.back();
    if (p.one_pass && d_rows >= 0 && unit(d_rows) && ve.run_size(d_rows) >= seg_rows && p.block_m < seg_rows &&
        p.m / seg_rows >= kTransposedMinTiles && next_pow2(p.r) > kTransposedChunk &&
        std::all_of(stage.begin(), stage.end(), [](const auto& rs) {
          Op op = rs.first->op;
          return op == Op::Sum || op == Op::Prod || op == Op::Max || op == Op::Min;
        })) {
      p.transposed = true;
      p.persistent = false;
      p.block_r = kTransposedChunk;
      p.block_m = seg_rows;
    }
  } else {
    // (columns whose row segments are 256 bytes; held whole while 64 columns fit in kMaxTile, narrowed to fit)
    int64_t cols = next_pow2(p.i);
    segment = std::max<int64_t>(64, kColumnSegmentBytes / narrowest_element(g));
    p.persistent = next_pow2(p.r) * std::min<int64_t>(cols, 64) <= kMaxTile;
    p.block_i = std::min(cols, p.persistent ? std::max<int64_t>(64, kMaxTile / next_pow2(p.r)) : 64);
    p.block_i = std::min(p.block_i, segment);
    p.block_r = p.persistent ? next_pow2(p.r) : std::max<int64_t>(1, 4096 / p.block_i);
  }

  // Looped columns of a softmax: max(y) and sum(exp(y - max)) in one pass (online, in the stage loops below),
  // over [kOnlineChunkRows, 256-byte segment] chunks. (Only when the sum reads no reduction later than the max.)
  if (!p.rows && !p.persistent && (p.r + kOnlineChunkRows - 1) / kOnlineChunkRows <= kOnlineMaxChunks) {
    for (auto [mx, sum] : softmax_sums(reductions)) {
      if (stage.at(sum) == stage.at(mx) + 1) p.online[mx] = sum;
    }
    if (!p.online.empty()) {
      p.block_i = std::min(next_pow2(p.i), segment);
      p.block_r = kOnlineChunkRows;
    }
  }

  // Cooperative rows: a long row read more than once (a softmax, a norm) is split over GROUPS programs that
  // run at the same time, each holding one chunk in registers, so the row is read from memory once. Each
  // reduction is one exchange: every program stores its chunk's partial result, counts itself in on the row's
  // counter and waits until the row's GROUPS programs have (round k waits for (k + 1) * GROUPS), then combines
  // the GROUPS partials in index order. A program waits only for programs of its own tile group, and all
  // programs are resident at once (the launcher's _coop_programs sizes the grid from the compiled kernel), so
  // the waits end. Under the interpreter, where programs run one after another, a row is one group of one.
  // Only reductions whose partials combine exactly like the whole (floating sum, max, min) and full-size
  // outputs (stored by the program holding the chunk).
  p.coop =
      p.rows && !p.persistent && !p.one_pass && p.r >= kCoopMinRow &&
      std::all_of(g.outputs.begin(), g.outputs.end(), [&](const Node* o) { return o->shape == g.space; }) &&
      std::all_of(stage.begin(), stage.end(), [](const auto& rs) {
        Op op = rs.first->op;
        return (op == Op::Sum || op == Op::Max || op == Op::Min) && is_floating(rs.first->src[0]->dtype);
      });

  // Split rows ("the last program finishes"): few long rows read once, whose reductions combine exactly from
  // partials (argmax/argmin from each chunk's first extreme index and NaN-keeping extreme value, max, min), are
  // split over PARTS programs per row, CHUNK elements each. A program reduces its chunk, stores its partials,
  // counts in on the row's counter (acq_rel) and goes; the program that counts in last combines the row's
  // partials in index order (the first index among the chunks reaching the extreme, the first NaN's when one
  // holds a NaN: PyTorch's rules), stores the outputs and sets the counter back to zero, so that the next call
  // finds it zeroed (ModelNew holds it, so one ModelNew runs one call at a time: two streams at once would
  // share its counters). One launch, and no program ever waits. Under the interpreter the programs run in
  // order, so the last one counts in last too.
  p.split =
      p.rows && !p.persistent && p.one_pass && !p.coop && p.m < kSplitMaxRows && p.r >= kSplitMinRow &&
      std::all_of(stage.begin(), stage.end(), [](const auto& rs) {
        Op op = rs.first->op;
        return (op == Op::ArgMax || op == Op::ArgMin || op == Op::Max || op == Op::Min) &&
               is_floating(rs.first->src[0]->dtype);
      });

  // Tiles of argmax/argmin groups (only max, min, argmax, argmin reduced). A lane keeps a running extreme and
  // its index, and the loop's loads are all that is in flight, so tiles are sized by the bytes each thread
  // loads per chunk (kArgLaneBytes: 16 fp32 or 32 fp16/bf16), as measured on the H200 (kernel times, L2
  // flushed; eager in brackets):
  // - looped rows read once: [BLOCK_M, 2048] on 8 warps, BLOCK_M = 2 (fp32) or 4 (16-bit): 8192 x 50257 fp16
  //   0.324 ms (0.434), against 0.565 for one row of 8192 on 16 warps;
  // - split rows: 4 warps of BLOCK_R = 2048 (fp32) or 4096 (16-bit), CHUNK = 16 tiles while that still makes
  //   kSplitMinPrograms programs, else 8: a whole 16.8M fp32 tensor's argmax and argmin in 0.058 ms (0.072),
  //   0.088 ms with 4096 on 8 warps;
  // - columns: kArgColumnBytes of the contiguous kept dim (256 bf16 or 128 fp32 columns: each row of the tile
  //   is 512 contiguous bytes), and warps so that the grid holds about kArgGridWarps: 64 x 4096 x 2047 bf16
  //   over dim 1 (512 programs) [64, 256] on 16 warps 0.537 ms (0.628), against 1.269 ms for [64, 64] on 8;
  //   64 x 1023 x 4097 fp32 over dim 1 (2112 programs) [8, 128] on 2 warps 0.317 ms (0.385), 0.366 for [64, 64].
  bool arg_tiles =
      std::any_of(stage.begin(), stage.end(),
                  [](const auto& rs) { return rs.first->op == Op::ArgMax || rs.first->op == Op::ArgMin; }) &&
      std::all_of(stage.begin(), stage.end(), [](const auto& rs) {
        Op op = rs.first->op;
        return op == Op::ArgMax || op == Op::ArgMin || op == Op::Max || op == Op::Min;
      });
  // Cooperative column blocks: the looped (online) softmax columns of fp32 tensors, in the measured range of
  // groups, are split the same way: the column block [R, BLOCK_I] of one outer index over GROUPS programs of
  // [BLOCK_R, BLOCK_I], each program's partials [1, BLOCK_I] (a max and a sum of exp per column), one counter per
  // column block. Only softmax pairs (a max and its sum of exp, exchanged together) and full-size outputs.
  auto scalar_columns = [&]() {
    const int64_t elem = narrowest_element(g), vec = 16 / elem;
    if (p.i % p.block_i != 0 && p.i % vec != 0) return true;  // (the column mask's runs are shorter)
    return load_vector(ve, p.inner.back(), elem) < vec;
  };
  if (!p.rows && !p.online.empty() && narrowest_element(g) == 4) {
    // (columns Triton loads an element at a time: narrower and deeper chunks, kCoopScalarColumns below)
    const bool scalar = scalar_columns();
    const int64_t chunk = scalar ? kCoopScalarColumnChunk : kCoopColumnChunk;
    int64_t groups = (p.r + chunk - 1) / chunk;
    std::set<const Node*> paired;
    for (auto [mx, sum] : p.online) paired.insert({mx, sum});
    p.coop = groups >= kCoopColumnMinGroups && groups <= kCoopColumnMaxGroups &&
             std::all_of(g.outputs.begin(), g.outputs.end(), [&](const Node* o) { return o->shape == g.space; }) &&
             std::all_of(stage.begin(), stage.end(), [&](const auto& rs) { return paired.count(rs.first) > 0; });
    if (p.coop) {
      p.online.clear();  // (exchanged, not looped)
      p.block_r = chunk;
      if (scalar) {
        p.block_i = kCoopScalarColumnWidth;
        p.column_warps = kCoopScalarColumnWarps;
      }
    }
  }

  int64_t bytes = 1;  // of the widest reduced input
  for (auto& [red, st] : stage) bytes = std::max<int64_t>(bytes, dtype_size(red->src[0]->dtype));
  int64_t lane_elems = std::max<int64_t>(1, kArgLaneBytes / bytes);
  if (p.split) {
    p.arg_warps = 4;
    p.block_r = p.arg_warps * 32 * lane_elems;  // (block_m is 1)
    p.split_chunk = 16 * p.block_r;
    if (p.m * ((p.r + p.split_chunk - 1) / p.split_chunk) < kSplitMinPrograms) p.split_chunk = 8 * p.block_r;
  } else if (arg_tiles && p.rows && !p.persistent && p.one_pass && !p.coop) {
    p.arg_warps = 8;
    p.block_r = 2048;
    p.block_m = std::clamp<int64_t>(p.arg_warps * 32 * lane_elems / p.block_r, 1, next_pow2(p.m));
  } else if (arg_tiles && !p.rows && !p.persistent) {  // (a column that fits in one tile stays in one)
    p.block_i = std::min<int64_t>(next_pow2(p.i), std::max<int64_t>(1, kArgColumnBytes / bytes));
    int64_t programs = p.m * ((p.i + p.block_i - 1) / p.block_i);
    p.arg_warps = 2;
    while (p.arg_warps < 16 && programs * p.arg_warps * 2 <= kArgGridWarps) p.arg_warps *= 2;
    p.block_r = std::max<int64_t>(1, p.arg_warps * 32 * lane_elems / p.block_i);
    // Chunks of 32 rows run 4.3x slower than 16 or 64, at every width measured (tests/gpu/tiles_experiment.py,
    // argcols, 2026-12-04: argmin over dim 1 of bf16 [128, 4096, 2047], [32, 256] on 8 warps 4.42 ms, [32, 128]
    // on 4 and [32, 64] on 2 the same, against 1.02 ms for [64, 256] on 16 and 1.05 ms for [16, 256] on 4; [64,
    // 4096, 2047] alike, 2.94 against 0.52 ms): such a tile takes twice the warps and rows (half, with 16 warps).
    if (p.block_r == 32) {
      p.arg_warps = p.arg_warps < 16 ? p.arg_warps * 2 : p.arg_warps / 2;
      p.block_r = std::max<int64_t>(1, p.arg_warps * 32 * lane_elems / p.block_i);
    }
  }
  // Split columns: looped columns whose full-size loads read one element per instruction (rows that do not start
  // 16-byte aligned, or a column mask that does not cut at a multiple of the vector, so Triton cannot vectorize
  // them), over few column blocks: one program per block left the loads in flight too few (measurements at
  // kSplitColumnPrograms). The column block's rows are split over PARTS programs of CHUNK rows, combined by the
  // block's last program as split rows are: each program stores its [1, BLOCK_I] partials and counts in; the
  // last one reduces the block's [PARTS, BLOCK_I] partials along axis 0, in part order. Floating sum, prod, max
  // and min combine from partials (a dot sum's lanes stay plain, split in parts as a tree would be).
  int64_t col_blocks = p.rows ? 0 : p.m * ((p.i + p.block_i - 1) / p.block_i);
  if (!p.rows && !p.persistent && p.one_pass && p.online.empty() && !p.coop && !arg_tiles &&
      col_blocks < kSplitColumnPrograms &&
      std::all_of(stage.begin(), stage.end(), [](const auto& rs) {
        Op op = rs.first->op;
        return (op == Op::Sum || op == Op::Prod || op == Op::Max || op == Op::Min) &&
               acc_type(rs.first->src[0]) == DType::Float32;
      }) &&
      scalar_columns()) {
    // (CHUNK a multiple of a compensated sum's block of chunks, so that its blocks stay within the chunk)
    const int64_t block_r = std::min(p.block_r, kSplitColumnRows);
    int64_t step = block_r * kCompensateEvery;
    int64_t parts = (kSplitColumnPrograms + col_blocks - 1) / col_blocks;
    int64_t chunk = std::max((p.r + parts - 1) / parts, kSplitColumnMinChunk);
    chunk = (chunk + step - 1) / step * step;
    if (chunk < p.r) {
      p.split = true;
      p.split_chunk = chunk;
      p.block_r = block_r;
    }
  }
  p.parts = p.split ? (p.r + p.split_chunk - 1) / p.split_chunk : 1;
  if (p.coop && p.rows) p.block_r = p.r >= kCoopLongRow ? kCoopLongChunk : kCoopChunk;  // (block_m is 1: a looped row)

  // Held rows that Triton loads one element per lane (rows whose starts are not 16-byte aligned: 151 bf16) get
  // one warp per kRowLaneElems * 32 elements of the row and kRowLaneElems * 4 elements a lane. Triton lays the
  // row's lanes and then its warps along the row before it gives any to the rows, so with the usual 8 warps
  // each lane held one element of each of 16 rows, and every reduction was a shuffle tree and a shared-memory
  // exchange per element: 249 shuffles for a lane's 16 elements in a softmax entropy over 151 classes (issue
  // time 1.6 ms against a 0.15 ms bandwidth floor). With 8 elements of a row a lane, most of a reduction is the
  // lane's own additions.
  if (p.rows && p.persistent && !p.coop && !p.split && p.arg_warps == 0 && !p.reduced.empty() &&
      p.block_r < 32 * usual_warps(p.block_m * p.block_r, false) * kRowLaneElems &&
      load_vector(ve, p.reduced.back(), narrowest_element(g)) == 1 &&
      p.block_r >= 32 * kRowLaneElems) {
    p.row_warps = static_cast<int>(std::min<int64_t>(16, p.block_r / (32 * kRowLaneElems)));
    p.block_m = std::clamp<int64_t>(p.row_warps * 32 * kRowLaneElems * 4 / p.block_r, 1, next_pow2(p.m));
  }
  return p;
}

// A looped floating sum whose lanes are compensated over many chunks (not a dot sum: see the stage loops).
bool compensable(const Node* red) {
  return red->op == Op::Sum && red->attr.str != "dot" && acc_type(red->src[0]) == DType::Float32;
}

// Peeled rows: a row read once, one program per row, whose loads start misaligned (rows 65537 floats apart) is
// read as whole chunks from its first 16-byte boundary, which Triton loads as vectors (tl.multiple_of on the
// chunk's start), and its head (< 16 bytes) and tail as two masked chunks. The loads along the row must all share
// one misaligned start: the peel moves the chunks off the row's start, so a load aligned with it loses its
// vectors. A load broadcast over the rows (the vector of a mat-vec) is left out: it reads the same few KB for
// every row, from L1 and L2, and loads an element at a time wherever the row starts.
// Peeled chunks are kPeelChunk elements on kPeelWarps warps. Measured on the H200 (tests/gpu/tiles_experiment.py,
// 2026-12-04, torch.mv over [24001, 40009] fp32, kernel time): peeled [1, 2048] on 4 warps 0.91 ms (99% of the
// floor; 40 registers a thread, ptxas sm_90a), [1, 8192] on 16 warps 0.97 ms (104 registers), unpeeled [1, 8192]
// on 16 warps 1.06 ms, cuBLAS 0.93 ms.
void plan_peel(Plan& p, const Group& g, const ValueEmitter& ve, const std::vector<const Node*>& reductions) {
  const int64_t elem = narrowest_element(g);
  int64_t widest = 1;
  for (const Node* red : reductions) widest = std::max<int64_t>(widest, dtype_size(red->src[0]->dtype));
  // (the peeled loop has no compensated blocks: a compensable sum must fit in kPlainChunks chunks)
  const bool any_compensable = std::any_of(reductions.begin(), reductions.end(), compensable);
  if (!(p.rows && !p.persistent && !p.coop && !p.split && p.block_m == 1 && p.one_pass && p.reduced.size() == 1 &&
        p.online.empty() && elem == widest && p.r > kPeelChunk &&
        (!any_compensable || (p.r + kPeelChunk - 1) / kPeelChunk <= kPlainChunks) &&
        std::none_of(reductions.begin(), reductions.end(),
                     [](const Node* red) { return red->op == Op::ArgMax || red->op == Op::ArgMin; }))) {
    return;
  }
  const int rdim = p.reduced[0];
  const int64_t vec = 16 / elem;
  auto residue = [&](int64_t stride) { return ((stride % vec) + vec) % vec; };
  auto broadcast = [&](const std::vector<int64_t>& l) {
    return std::all_of(p.outer.begin(), p.outer.end(), [&](int d) { return l[static_cast<size_t>(d)] == 0; });
  };
  std::vector<const std::vector<int64_t>*> row_loads;
  const auto& acc = ve.accesses();
  const auto& store = ve.access_is_store();
  for (size_t k = 0; k < acc.size(); ++k) {
    if (!(k < store.size() && store[k]) && acc[k][static_cast<size_t>(rdim)] == 1 && !broadcast(acc[k])) {
      row_loads.push_back(&acc[k]);
    }
  }
  auto same_start = [&](const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    return std::all_of(p.outer.begin(), p.outer.end(), [&](int d) {
      return ve.run_size(d) == 1 || residue(a[static_cast<size_t>(d)]) == residue(b[static_cast<size_t>(d)]);
    });
  };
  const std::vector<int64_t> aligned_row(g.space.size(), 0);
  if (row_loads.empty() || same_start(*row_loads[0], aligned_row) ||
      !std::all_of(row_loads.begin(), row_loads.end(), [&](auto* l) { return same_start(*l, *row_loads[0]); })) {
    return;
  }
  p.peel_vec = vec;
  p.peel_residues.assign(g.space.size(), 0);
  for (size_t d = 0; d < g.space.size(); ++d) p.peel_residues[d] = residue((*row_loads[0])[d]);
  p.block_r = kPeelChunk;
  p.row_warps = kPeelWarps;
}

}  // namespace

const TExpr* neutral(TileBuilder& b, Op op, DType t) {
  bool fp = is_floating(t);
  switch (op) {
    case Op::Sum: return fp ? b.f(0.0) : b.i(0);
    case Op::Prod: return fp ? b.f(1.0) : b.i(1);
    case Op::Max:
    case Op::ArgMax: return fp ? b.f(-std::numeric_limits<double>::infinity()) : b.i(std::numeric_limits<int32_t>::min());
    default: return fp ? b.f(std::numeric_limits<double>::infinity()) : b.i(std::numeric_limits<int32_t>::max());
  }
}

DType acc_type(const Node* reduce_input) {
  DType t = reduce_input->dtype;
  if (is_floating(t)) return DType::Float32;
  return t == DType::Bool ? DType::Int64 : t;
}

TOp lane_combine(Op op, bool fp) {
  return op == Op::Sum ? TOp::Add : op == Op::Prod ? TOp::Mul
         : op == Op::Max ? (fp ? TOp::NanMaximum : TOp::Maximum)
                         : (fp ? TOp::NanMinimum : TOp::Minimum);
}

void lower_reduction(KernelJob& job) {
  const Group& g = job.group;
  TileBuilder b(job.arena);
  ValueEmitter ve(b, job.schedule, g, job.buffers);
  auto is_reduced = [&](int d) { return std::find(g.axes.begin(), g.axes.end(), d) != g.axes.end(); };
  for (auto* o : g.outputs) {
    ve.collect(o, group_map(g, o));
    ve.collect_store(o, group_map(g, o));
  }
  ve.merge_dims([&](int d) {
    int next = d + 1;
    while (next < static_cast<int>(g.space.size()) && g.space[next] == 1) ++next;
    return next < static_cast<int>(g.space.size()) && is_reduced(d) == is_reduced(next);
  });

  std::map<const Node*, int> stage = reduction_stages(g);
  std::vector<const Node*> reductions;
  for (auto* n : g.nodes) {
    if (op_kind(n->op) == OpKind::Reduce) reductions.push_back(n);
  }
  Plan p = plan_reduction(g, ve, stage, reductions);
  plan_peel(p, g, ve, reductions);
  // Columns stored transposed against their loads get their own form (lower_transposed_columns.cpp).
  if (!p.rows) {
    if (TransposedColumns tc = plan_transposed_columns(g, ve, p.outer, p.reduced, p.inner, p.one_pass); tc.t >= 0) {
      lower_transposed_columns(job, ve, b, tc);
      return;
    }
  }
  // Picks (values.h): a target's logit or weight picked by comparing the class index with the target is read at
  // the target instead (one load a row), outside the reduction loops. PTX for sm_90 (scripts/ptx_census.py),
  // instructions a thread: loss_ce_weight_smoothing_ignore's row kernel ([131072, 1000] fp32, 4 rows of 1024 on 8
  // warps, 16 elements a thread) 667 -> 429, whose issue time (0.167 ms) had been above the bandwidth floor
  // (0.124 ms); loss_ce_bf16 ([32768, 32000]) 709 -> 438; loss_ce_spatial_fp16's columns 1479 -> 933.
  for (const Node* red : reductions) {
    ValueEmitter::Pick pick;
    if (ve.match_pick(red, pick)) ve.picks[red] = pick;
  }
  reductions.erase(std::remove_if(reductions.begin(), reductions.end(), [&](const Node* red) { return ve.picks.count(red) > 0; }),
                   reductions.end());
  for (const auto& [red, pick] : ve.picks) stage.erase(red);
  const bool one_pass = p.one_pass, coop = p.coop, split = p.split;
  const int arg_warps = p.arg_warps;
  const int64_t parts = p.parts, split_chunk = p.split_chunk;
  const std::map<const Node*, const Node*>& online = p.online;

  const TExpr* pid = b.program_id(0);
  const int64_t i_blocks = p.rows ? 1 : (p.i + p.block_i - 1) / p.block_i;  // column blocks per outer index
  // A cooperative or split kernel's unit of work: a row, or a column block (an outer index's BLOCK_I columns).
  const char* line = p.rows ? "row" : "col_block";
  TStmt coop_tiles{TStmtKind::For};
  const TExpr* groups = nullptr;
  if (coop) {
    job.kernel.params.push_back({"work_ptr", ParamKind::Pointer});
    job.launch.args.push_back({"work_ptr", "work"});
    job.kernel.params.push_back({"count_ptr", ParamKind::Pointer});
    job.launch.args.push_back({"count_ptr", "count"});
    job.launch.scratch = {"work", "count"};
    groups = job.constexpr_param("GROUPS", 0);
    job.launch.args.back().value = "groups";
    job.constexpr_param("GROUPS_P2", 0);
    job.launch.args.back().value = "triton.next_power_of_2(groups)";
    int64_t lines = p.m * i_blocks;
    std::string m = std::to_string(lines);
    // (a partial per reduction and program: one value for a row, BLOCK_I for a column block)
    int64_t partial_size = static_cast<int64_t>(stage.size()) * (p.rows ? 1 : p.block_i);
    job.launch.setup.push_back("groups, block = _coop_split({kernel}, " + std::to_string(p.r) + ", " +
                               std::to_string(p.block_r) + ")");
    job.launch.setup.push_back("work = torch.empty((" + m + " * groups * " + std::to_string(partial_size) +
                               ",), device={device}, dtype=torch.float32)");
    job.launch.setup.push_back("count = torch.empty((" + m + ",), device={device}, dtype=torch.int32)");
    job.launch.setup.push_back("_launch(_zero_counts_kernel, (triton.cdiv(" + m + ", 1024),), dict(count_ptr=count, N=" + m +
                               ", BLOCK=1024), dict(num_warps=4))");
    job.launch.coop_tiles = m + " * groups";
    job.launch.coop_groups = "groups";
    job.kernel.needs_coop = true;
    coop_tiles.var = "tile";
    coop_tiles.start = pid;
    coop_tiles.stop = b.mul(b.i(lines), groups);
    coop_tiles.step = b.num_programs(0);
    coop_tiles.body.push_back(TileBuilder::comment(
        p.rows ? "a cooperative row: GROUPS programs, one chunk of BLOCK_R each, all resident (_coop_programs)"
               : "a cooperative column block: GROUPS programs, BLOCK_R rows of its BLOCK_I columns each, all resident "
                 "(_coop_programs)"));
    coop_tiles.body.push_back(TileBuilder::assign(line, b.op(TOp::FloorDiv, {b.var("tile"), groups})));
    coop_tiles.body.push_back(TileBuilder::assign("part", b.op(TOp::Mod, {b.var("tile"), groups})));
  }
  // Looped rows read more than once: the kernel body runs once per row tile, for tiles pid, pid + PROGRAMS, ...
  bool row_loop = p.rows && !p.persistent && !one_pass && !coop;
  TStmt tiles{TStmtKind::For};
  if (row_loop) {
    int64_t row_tiles = (p.m + p.block_m - 1) / p.block_m;
    tiles.var = "tile";
    tiles.start = pid;
    tiles.stop = b.i(row_tiles);
    tiles.step = job.constexpr_param("PROGRAMS", 0);
    job.launch.args.back().value = "programs";
    job.launch.setup.push_back("programs = _persistent_programs(" + std::to_string(row_tiles) + ", " +
                               std::to_string(kLoopProgramsPerSm) + ")");
    job.kernel.needs_num_sms = true;
  }
  auto& body = coop ? coop_tiles.body : row_loop ? tiles.body : job.kernel.body;
  ve.out = &body;
  TStmt finish{TStmtKind::If};  // split rows: what the row's last program does
  const TExpr* chunk = nullptr;
  if (split) {
    const TExpr* parts_param = job.constexpr_param("PARTS", parts);
    job.constexpr_param("PARTS_P2", next_pow2(parts));
    chunk = job.constexpr_param("CHUNK", split_chunk);
    body.push_back(TileBuilder::comment(p.rows ? "a split row: PARTS programs, CHUNK elements each"
                                               : "a split column block: PARTS programs, CHUNK rows each"));
    body.push_back(TileBuilder::assign(line, b.op(TOp::FloorDiv, {pid, parts_param})));
    body.push_back(TileBuilder::assign("part", b.op(TOp::Mod, {pid, parts_param})));
  }
  const TExpr* R = job.constexpr_param("R", p.r);
  const TExpr* block_r = job.constexpr_param("BLOCK_R", p.block_r);
  if (coop) job.launch.args.back().value = "block";
  int red_axis = p.rows ? 1 : 0;
  std::string red_index = p.rows ? "None, :" : ":, None";
  ve.axis_mask.assign(2, nullptr);

  if (p.rows) {
    const TExpr* M = job.constexpr_param("M", p.m);
    const TExpr* block_m = job.constexpr_param("BLOCK_M", p.block_m);
    if (p.transposed) {
      body.push_back(TileBuilder::comment(
          "BLOCK_M rows a program: an operand stored along the rows is read in 128-byte segments, chunk by chunk"));
    }
    body.push_back(TileBuilder::assign(
        "rows", b.add(b.mul(coop || split ? b.var("row") : row_loop ? b.var("tile") : pid, block_m),
                      b.expand(b.arange(block_m), ":, None"))));
    const TExpr* rows = b.var("rows");
    ve.store_anchor = rows;
    if (p.m % p.block_m != 0) {
      body.push_back(TileBuilder::assign("row_mask", b.lt(rows, M)));
      ve.axis_mask[0] = b.var("row_mask");
    }
    ve.split_index(rows, p.outer, 0, "i");
    job.launch.grid = {row_loop || coop ? std::string("programs")
                       : split      ? std::to_string(p.m * parts)
                                    : std::to_string((p.m + p.block_m - 1) / p.block_m)};
  } else {
    const TExpr* I = job.constexpr_param("I", p.i);
    const TExpr* block_i = job.constexpr_param("BLOCK_I", p.block_i);
    const TExpr* cols_in_block = b.expand(b.arange(block_i), "None, :");
    if (coop || split) {  // (a column block's partials are stored by lane)
      body.push_back(TileBuilder::assign("lanes", cols_in_block));
      cols_in_block = b.var("lanes");
    }
    const TExpr* block = coop || split ? b.var(line) : pid;  // the column block
    if (i_blocks > 1) {
      body.push_back(TileBuilder::assign("outer", b.op(TOp::FloorDiv, {block, b.i(i_blocks)})));
      body.push_back(TileBuilder::assign("cols", b.add(b.mul(b.op(TOp::Mod, {block, b.i(i_blocks)}), block_i), cols_in_block)));
    } else {
      body.push_back(TileBuilder::assign("outer", block));
      body.push_back(TileBuilder::assign("cols", cols_in_block));
    }
    const TExpr* outer = b.var("outer");
    const TExpr* cols = b.var("cols");
    if (p.i % p.block_i != 0) {
      body.push_back(TileBuilder::assign("col_mask", b.lt(cols, I)));
      ve.axis_mask[1] = b.var("col_mask");
    }
    ve.split_index(outer, p.outer, -1, "o");
    ve.split_index(cols, p.inner, 1, "i");
    job.launch.grid = {coop ? std::string("programs") : std::to_string(p.m * i_blocks * parts)};
  }

  // Sets up the reduced index for a chunk starting at `start` (null: the whole row in one tile).
  const TExpr* r_var = nullptr;
  // (peeled rows, below: `whole` chunks need no mask, edge chunks end at `end`)
  auto setup_chunk = [&](const TExpr* start, std::vector<TStmt>& out, bool whole = false,
                         const TExpr* end = nullptr) {
    const TExpr* ar = b.expand(b.arange(block_r), red_index);
    std::string name = ve.fresh("r");
    std::vector<TStmt>* saved = ve.out;
    ve.out = &out;
    out.push_back(TileBuilder::assign(name, start ? b.add(start, ar) : ar));
    r_var = b.var(name);
    ve.axis_mask[red_axis] = nullptr;
    // (a cooperative row's chunk size is chosen at launch; a split row's last chunk may end past R)
    if (!whole && (end || p.r % (split ? split_chunk : p.block_r) != 0 || coop)) {
      std::string mask = ve.fresh("r_mask");
      out.push_back(TileBuilder::assign(mask, b.lt(r_var, end ? end : R)));
      ve.axis_mask[red_axis] = b.var(mask);
    }
    ve.split_index(r_var, p.reduced, red_axis, "r");
    ve.out = saved;
  };
  auto full_mask = [&]() { return b.band(ve.axis_mask[0], ve.axis_mask[1]); };

  // The value to reduce, with masked-off lanes set to the reduction's neutral element.
  // A value that does not vary along the reduced dims (a broadcast input, a 1-element row) is a smaller tile,
  // which a sum would count once: it is broadcast to the whole tile first.
  auto masked_input = [&](const Node* red) {
    const TExpr* v = ve.value(red->src[0], group_map(g, red->src[0]));
    if (!ve.varies_along(red->src[0], group_map(g, red->src[0]), std::vector<int>(g.axes.begin(), g.axes.end()))) {
      v = b.call("tl.broadcast_to", {v, b.var(p.rows ? "[BLOCK_M, BLOCK_R]" : "[BLOCK_R, BLOCK_I]")});
    }
    if (const TExpr* m = full_mask()) v = b.op(TOp::Where, {m, v, neutral(b, red->op, red->src[0]->dtype)});
    return v;
  };

  // The index of an argmax/argmin along the reduced axis, from candidate values `v` at indices `idx`
  // (the row itself, or the per-lane winners of a loop). PyTorch's rules: the first occurrence wins ties,
  // and a NaN beats every number (the first NaN, when there are several). The extreme is taken keeping NaN
  // (one `max.NaN` a value), so a NaN extreme says the row holds one (no second reduction of an is-NaN flag),
  // and it is the row's max/min as PyTorch computes it: `extreme`, when given, receives it (the value of a
  // `torch.max(x, d)` beside its indices, a split row's chunk value).
  auto arg_pick = [&](const Node* red, const TExpr* v, const TExpr* idx, std::vector<TStmt>& out,
                      const TExpr** extreme = nullptr) {
    if (v->op != TOp::Var) {
      std::string cand = ve.fresh("cand");
      out.push_back(TileBuilder::assign(cand, v));
      v = b.var(cand);
    }
    bool fp = is_floating(red->src[0]->dtype);
    std::string best = ve.fresh(ValueEmitter::value_name(red->op == Op::ArgMax ? Op::Max : Op::Min));
    TOp extreme_op = !fp ? reduce_op(red->op) : red->op == Op::ArgMax ? TOp::NanMax : TOp::NanMin;
    if (fp) job.kernel.needs_nan_combine = true;
    out.push_back(TileBuilder::assign(best, b.reduce(extreme_op, v, red_axis)));
    const TExpr* bv = b.var(best);
    const TExpr* hit = b.op(TOp::Eq, {v, bv});
    if (fp) hit = b.op(TOp::Where, {b.op(TOp::Ne, {bv, bv}), b.op(TOp::Ne, {v, v}), hit});
    if (extreme) *extreme = bv;
    return b.reduce(TOp::Min, b.op(TOp::Where, {hit, idx, R}), red_axis);
  };
  // Whether value `v` replaces a lane's running argmax/argmin `a` (its index goes with it): a lane keeps its
  // first extreme value (strict comparison) and, once it has seen a NaN, its first NaN. Floats: ~(v <= a) is
  // v > a or either one NaN (one unordered compare), & (a == a) keeps a NaN lane's first NaN: 5 instructions a
  // value with the two selects, against 7 for (v > a) | (v != v) & (a == a) (PTX of argm_max_min_dim0_fp16's
  // loop, 32 values a thread: 588 -> 420 instructions, with its max and min riding on the argmax and argmin).
  auto arg_better = [&](const Node* red, const TExpr* v, const TExpr* a) {
    bool fp = is_floating(red->src[0]->dtype);
    TOp cmp = red->op == Op::ArgMax ? (fp ? TOp::Le : TOp::Gt) : (fp ? TOp::Ge : TOp::Lt);
    const TExpr* win = b.op(cmp, {v, a});
    return fp ? b.band(b.op(TOp::Not, {win}), b.op(TOp::Eq, {a, a})) : win;
  };
  // Two reductions of one value over the same axes, keepdim apart (`x.sum(0, keepdim=True)` beside `x.mean(0)`,
  // whose sum reads x widened to float32, as every load is), are computed once: the later one is the earlier's
  // twin, and only their output rounding differs (the twin's raw value, before rounded_like_eager).
  auto exact_source = [](const Node* n) {
    while (n->op == Op::Cast && n->dtype == DType::Float32 && is_floating(n->src[0]->dtype) &&
           dtype_size(n->src[0]->dtype) <= 4) {
      n = n->src[0];
    }
    return n;
  };
  auto twin_of = [&](const Node* red, const std::vector<const Node*>& among) -> const Node* {
    if (p.online.count(red) || softmax_sums(among).count(red)) return nullptr;
    for (const Node* other : among) {
      if (other == red) return nullptr;
      if (other->op == red->op && other->attr.ints == red->attr.ints && other->attr.str == red->attr.str &&
          exact_source(other->src[0]) == exact_source(red->src[0]) && !p.online.count(other)) {
        return other;
      }
    }
    return nullptr;
  };
  // A max (min) of the same values as an argmax (argmin) in the kernel (`torch.max(x, d)`'s values and
  // indices) is that argmax's extreme: no accumulator or reduction of its own.
  auto arg_sibling = [&](const Node* red, const std::vector<const Node*>& among) -> const Node* {
    if (red->op != Op::Max && red->op != Op::Min) return nullptr;
    Op arg = red->op == Op::Max ? Op::ArgMax : Op::ArgMin;
    for (const Node* other : among) {
      if (other->op == arg && other->src[0] == red->src[0]) return other;
    }
    return nullptr;
  };

  // A floating max/min keeps NaN, as PyTorch's does (tl.max drops it on the GPU): a NaN-propagating combine.
  // (along the tile's reduced axis, or `axis`: a cooperative row's 1-D partials)
  auto reduce_value = [&](const Node* red, const TExpr* v, int axis = -1) {
    if (axis < 0) axis = red_axis;
    if (red->op == Op::Prod) job.kernel.needs_mul_combine = true;
    bool nan = (red->op == Op::Max || red->op == Op::Min) && is_floating(red->src[0]->dtype);
    if (!nan) return b.reduce(reduce_op(red->op), v, axis);
    job.kernel.needs_nan_combine = true;
    return b.reduce(red->op == Op::Max ? TOp::NanMax : TOp::NanMin, v, axis);
  };

  if (coop) {
    setup_chunk(b.mul(b.var("part"), block_r), body);
    // Each reduction has a slot per program in the work buffer (its index among the group's reductions).
    auto slot = [&](const Node* red) {
      return static_cast<int64_t>(std::find(reductions.begin(), reductions.end(), red) - reductions.begin());
    };
    int64_t slots = static_cast<int64_t>(stage.size());  // (as the launcher's work buffer: one per reduction)
    std::map<const Node*, const TExpr*> combined;  // exchanged reductions
    int rounds = 0;
    // The work-buffer addresses of `red`'s partials: this program's, or all of the line's ([GROUPS_P2] for a
    // row; [GROUPS_P2, BLOCK_I] for a column block, whose program stores a [1, BLOCK_I] partial at
    // work[col_block, part, reduction, lane]).
    auto slot_address = [&](const TExpr* line_index, const TExpr* program, const Node* red) {
      const TExpr* at = b.add(b.mul(b.add(b.mul(line_index, groups), program), b.i(slots)), b.i(slot(red)));
      if (!p.rows) at = b.add(b.mul(at, b.var("BLOCK_I")), b.var("lanes"));
      return b.add(b.var("work_ptr"), at);
    };
    auto own_slot = [&](const Node* red) { return slot_address(b.var(p.rows ? "rows" : line), b.var("part"), red); };
    auto row_slots = [&](const Node* red) { return slot_address(b.var(line), b.var("group"), red); };
    // Counts this program in on the line's counter and waits for the line's other programs (one round).
    auto exchange = [&]() {
      body.push_back(TileBuilder::comment(
          p.rows ? "count in on the row's counter, wait for the row's other programs"
                 : "count in on the column block's counter, wait for its other programs"));
      body.push_back(TStmt{TStmtKind::Barrier});  // every thread's partial stored before the release
      std::string seen = ve.fresh("seen");
      const TExpr* counter = b.add(b.var("count_ptr"), b.var(line));
      TExpr arrive{TOp::AtomicAdd, "acq_rel"};
      arrive.args = {counter, b.i(1)};
      body.push_back(TileBuilder::assign(seen, b.add(job.arena.make(arrive), b.i(1))));
      TStmt wait{TStmtKind::While};
      wait.value = b.lt(b.var(seen), rounds == 0 ? groups : b.mul(groups, b.i(rounds + 1)));
      TExpr poll{TOp::AtomicAdd, "acquire"};
      poll.args = {counter, b.i(0)};
      wait.body.push_back(TileBuilder::assign(seen, job.arena.make(poll)));
      body.push_back(std::move(wait));
      body.push_back(TStmt{TStmtKind::Barrier});
      // A row's partials as a 1-D [GROUPS_P2] tile of their own (in the [1, BLOCK_R] tile's layout, every thread
      // would load them), combined to a [1] value that broadcasts over the chunk; a column block's as a
      // [GROUPS_P2, BLOCK_I] tile, combined along axis 0 to [1, BLOCK_I].
      if (rounds == 0) {
        const TExpr* group = b.arange(b.var("GROUPS_P2"));
        body.push_back(TileBuilder::assign("group", p.rows ? group : b.expand(group, ":, None")));
      }
      ++rounds;
    };
    auto load_partials = [&](const Node* red, const TExpr* other) {
      TExpr load{TOp::Load, "volatile"};
      load.args = {row_slots(red), b.lt(b.var("group"), groups), other};
      std::string name = ve.fresh("partials");
      body.push_back(TileBuilder::assign(name, job.arena.make(load)));
      return b.var(name);
    };
    auto assign = [&](const std::string& base, const TExpr* v) {
      std::string name = ve.fresh(base);
      body.push_back(TileBuilder::assign(name, v));
      return b.var(name);
    };
    // exp(a - m) that is 1 where a == m (so a chunk or a row of -inf sums its count, not NaN; scaled by
    // exp(-inf - M) = 0 afterwards, or NaN for a row of -inf, as in PyTorch).
    auto exp_from = [&](const TExpr* a, const TExpr* m) {
      return b.op(TOp::Exp, {b.op(TOp::Where, {b.op(TOp::Eq, {a, m}), b.f(0.0), b.op(TOp::Sub, {a, m})})});
    };
    const std::map<const Node*, const Node*> sums = softmax_sums(reductions);
    ve.on_reduce = [&](const Node* red) -> const TExpr* {
      auto it = combined.find(red);
      if (it != combined.end()) return it->second;
      // A softmax's sum(exp(y - max(y))) is exchanged with the max in one round (an online softmax): each
      // program's chunk sum is taken against its chunk's own maximum m_c and rescaled by exp(m_c - M).
      auto pair = sums.find(red);
      const Node* sum_exp = pair == sums.end() ? nullptr : pair->second;
      const TExpr* partial = assign("partial", reduce_value(red, masked_input(red)));
      body.push_back(TileBuilder::store(own_slot(red), partial, nullptr));
      const TExpr* y = nullptr;
      if (sum_exp) {
        y = ve.value(red->src[0], group_map(g, red->src[0]));
        const TExpr* e = exp_from(y, partial);
        if (const TExpr* m = full_mask()) e = b.op(TOp::Where, {m, e, b.f(0.0)});
        body.push_back(TileBuilder::store(own_slot(sum_exp), assign("partial", b.reduce(TOp::Sum, e, red_axis)), nullptr));
      }
      exchange();
      const TExpr* parts = load_partials(red, neutral(b, red->op, DType::Float32));
      const TExpr* v = assign(ValueEmitter::value_name(red->op), reduce_value(red, parts, 0));
      combined[red] = v;
      if (sum_exp) {
        const TExpr* sums = load_partials(sum_exp, b.f(0.0));
        combined[sum_exp] = assign(ValueEmitter::value_name(Op::Sum),
                                   b.reduce(TOp::Sum, b.mul(sums, exp_from(parts, v)), 0));
      }
      return v;
    };
    for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
  } else if (p.persistent) {
    setup_chunk(nullptr, body);
    std::map<const Node*, const TExpr*> extremes;  // each argmax/argmin's extreme value
    std::map<const Node*, const TExpr*> raw;  // a reduction with a twin: its value before rounding
    ve.on_reduce = [&](const Node* red) -> const TExpr* {
      if (const Node* twin = twin_of(red, reductions)) {
        ve.value(twin, group_map(g, twin));
        return raw.at(twin);
      }
      if (const Node* arg = arg_sibling(red, reductions)) {
        ve.value(arg, group_map(g, arg));  // (picks the index, which takes the extreme)
        return extremes.at(arg);
      }
      const TExpr* v = masked_input(red);
      v = red->op == Op::ArgMax || red->op == Op::ArgMin ? arg_pick(red, v, r_var, body, &extremes[red])
                                                          : reduce_value(red, v);
      if (std::none_of(reductions.begin(), reductions.end(), [&](const Node* o) { return twin_of(o, reductions) == red; })) {
        return v;
      }
      std::string name = ve.fresh(ValueEmitter::value_name(red->op));
      body.push_back(TileBuilder::assign(name, v));
      return raw[red] = b.var(name);
    };
    for (auto* o : g.outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
  } else {
    // One loop per stage: a reduction's stage is one more than that of the latest reduction it reads
    // (through the values it reduces), so independent reductions (log-sum-exp's sum and the target pick
    // after the max) share one pass over the row.
    std::map<const Node*, const TExpr*> done;
    ve.on_reduce = [&](const Node* red) -> const TExpr* {
      TZ_ASSERT(done.count(red), "reduction used before its loop");
      return done[red];
    };
    std::map<const Node*, const TExpr*> chunk_value;  // split rows: an argmax/argmin's chunk extreme
    // Peeled rows (plan_peel): the row's index along each outer dim as scalars (from the program's row split,
    // like split_index), and its head: the elements before its first 16-byte boundary.
    struct {
      std::vector<const TExpr*> row_index;
      const TExpr* head = nullptr;
    } peel;
    if (p.peel_vec > 1) {
      const int64_t vec = p.peel_vec;
      const TExpr* off = nullptr;  // the row's start modulo vec
      int64_t inner = 1;
      peel.row_index.assign(g.space.size(), nullptr);
      for (auto it = p.outer.rbegin(); it != p.outer.rend(); ++it) {
        int d = *it;
        int64_t size = ve.run_size(d);
        const TExpr* idx = inner > 1 ? b.op(TOp::FloorDiv, {pid, b.i(inner)}) : pid;
        if (inner * size < p.m) idx = b.op(TOp::Mod, {idx, b.i(size)});
        peel.row_index[static_cast<size_t>(d)] = size > 1 ? idx : b.i(0);
        const int64_t residue = p.peel_residues[static_cast<size_t>(d)];
        if (size > 1 && residue != 0) {
          const TExpr* term = b.mul(idx, b.i(residue));
          off = off ? b.add(off, term) : term;
        }
        inner *= size;
      }
      peel.head = b.op(TOp::Mod, {b.op(TOp::Sub, {b.i(vec), b.op(TOp::Mod, {off, b.i(vec)})}), b.i(vec)});
    }
    int stages = 0;
    for (auto& [red, st] : stage) stages = std::max(stages, st + 1);
    for (int st = 0; st < stages; ++st) {
      std::vector<const Node*> reds;
      std::set<const Node*> online_sums;
      for (auto& [mx, sum] : online) online_sums.insert(sum);
      for (const Node* red : reductions) {
        if (stage.at(red) == st && !online_sums.count(red)) reds.push_back(red);  // (a sum taken with its max)
      }
      if (reds.empty()) continue;
      std::string shape = p.rows ? "[BLOCK_M, BLOCK_R]" : "[BLOCK_R, BLOCK_I]";
      // A looped floating sum over many chunks carries each lane's rounding error in a compensation term
      // (Neumaier), so that a lane's serial sum is as accurate as a tree: measured on red_sum_min_keepdim_false
      // (16384 fp32 terms per output, 256 chunks), the plain serial sum was 1.5e-4 from the exact result and
      // failed 1e-4 against PyTorch, whose own error was 9.3e-5; compensated, with the lanes added in fp64,
      // 1.5e-5 (on the CPU through the interpreter; about half an ulp of the result). The compensation runs
      // once per kCompensateEvery chunks, on their plain partial sum: per chunk it doubled the time of
      // memory-bound loops on the H200 (tests/gpu/rows_experiment.py: 32768^2 mat-vec 0.96 -> 2.1 ms). Sums
      // over at most kPlainChunks chunks per lane (a softmax's row, a mat-vec's) stay plain. So do a matrix
      // product's dot products ("dot" sums) at any length: the reference is cuBLAS, which accumulates them in
      // plain fp32 too (32768^2 vec-mat: plain 1.9e-6 from the exact product, cuBLAS 1.8e-6; compensated every 8
      // chunks it ran 1.14 ms against 0.98 ms plain, tests/gpu/rows_experiment.py on the H200).
      int64_t chunks = ((split ? split_chunk : p.r) + p.block_r - 1) / p.block_r;  // per program
      bool blocked = chunks > kPlainChunks && std::any_of(reds.begin(), reds.end(), compensable);
      const bool peeled = p.peel_vec > 1 && !blocked;
      // A dot sum of peeled rows (a mat-vec) adds each lane's groups of kDotGroup products in fp32 and
      // accumulates the groups in fp64. Measured on the H200 (torch.mv over [24001, 40009] fp32, kernel time, 20
      // seeds, error against the fp64 product): fp32 lanes 0.91 ms, mean error 2.1e-5, and 3 of 20 trials off
      // cuBLAS by more than KernelBench's 1e-4 (cuBLAS 0.92 ms, mean error 2.4e-5: both sides' errors add up at
      // outputs near 0); grouped 0.87 ms, 7.5e-6, 1 of 20; every product in fp64 1.00 ms (its conversions, a
      // quarter of the rate of fp32 arithmetic, cost more than the memory floor leaves).
      std::vector<char> grouped;
      // ([BLOCK_M, BLOCK_R // kDotGroup, 1]: the printed reductions keep their dims)
      const std::string groups_2d = "[BLOCK_M, BLOCK_R // " + std::to_string(kDotGroup) + "]";
      const std::string group_shape = "[BLOCK_M, BLOCK_R // " + std::to_string(kDotGroup) + ", 1]";
      std::vector<std::string> accs, acc_is, comps, parts, online_accs;
      auto rides = [&](const Node* red) { return !online.count(red) && arg_sibling(red, reds) != nullptr; };
      auto twin = [&](const Node* red) { return coop ? nullptr : twin_of(red, reds); };
      for (const Node* red : reds) {
        bool arg = red->op == Op::ArgMax || red->op == Op::ArgMin;
        bool compensated = blocked && compensable(red);
        grouped.push_back(peeled && red->op == Op::Sum && red->attr.str == "dot" &&
                          acc_type(red->src[0]) == DType::Float32 && !twin(red));
        if (twin(red) || rides(red)) {  // (no accumulator: its twin's, or its argmax's lanes, hold its value)
          for (auto* names : {&accs, &acc_is, &comps, &parts, &online_accs}) names->push_back("");
          continue;
        }
        accs.push_back(ve.fresh("acc"));
        acc_is.push_back(arg ? ve.fresh("acc_idx") : "");
        comps.push_back(compensated ? ve.fresh("comp") : "");
        const TExpr* start = grouped.back()
                                 ? b.full(group_shape, b.f(0.0), DType::Float64)
                                 : b.full(shape, neutral(b, red->op, red->src[0]->dtype), acc_type(red->src[0]));
        body.push_back(TileBuilder::assign(accs.back(), start));
        if (arg) body.push_back(TileBuilder::assign(acc_is.back(), b.zeros(shape, DType::Int32)));
        if (compensated) body.push_back(TileBuilder::assign(comps.back(), b.zeros(shape, DType::Float32)));
        parts.push_back(compensated ? ve.fresh("part") : "");
        online_accs.push_back(online.count(red) ? ve.fresh("acc") : "");
        if (!online_accs.back().empty()) {
          body.push_back(TileBuilder::assign(online_accs.back(), b.zeros(shape, DType::Float32)));
        }
      }
      // blocked: for r0 in range(0, R, BLOCK_R * kCompensateEvery): part = 0; for r1 in range(r0, ...): part += v;
      // then the compensated add of part. Otherwise one loop over the chunks.
      TStmt outer{TStmtKind::For};
      outer.var = "r0";
      outer.start = split ? b.mul(b.var("part"), chunk) : b.i(0);
      outer.stop = split ? b.add(b.mul(b.var("part"), chunk), chunk) : R;
      outer.step = blocked ? b.mul(block_r, b.i(kCompensateEvery)) : block_r;
      TStmt inner{TStmtKind::For};
      inner.var = "r1";
      inner.start = b.var("r0");
      inner.stop = b.op(TOp::Min2, {b.add(b.var("r0"), outer.step), R});
      inner.step = block_r;
      TStmt& loop = blocked ? inner : outer;
      for (size_t k = 0; k < reds.size(); ++k) {
        if (!parts[k].empty()) outer.body.push_back(TileBuilder::assign(parts[k], b.zeros(shape, DType::Float32)));
      }
      std::vector<TStmt> after;  // the compensated adds, after a block's chunks
      // Accumulates one chunk (set up in lp.body) into the stage's accumulators.
      auto accumulate = [&](TStmt& lp) {
        ve.out = &lp.body;
        ve.clear_cache();
        for (auto& [node, value] : done) ve.keep_in_cache(node, group_map(g, node), value);
        for (size_t k = 0; k < reds.size(); ++k) {
          const Node* red = reds[k];
          const std::string& acc = accs[k];
          const std::string& acc_i = acc_is[k];
          if (acc.empty()) continue;  // a max taken by its argmax
          const TExpr* v = masked_input(red);
          const TExpr* a = b.var(acc);
          if (!acc_i.empty()) {
            std::string better = ve.fresh("better");
            lp.body.push_back(TileBuilder::assign(better, arg_better(red, v, a)));
            lp.body.push_back(TileBuilder::assign(acc_i, b.op(TOp::Where, {b.var(better), r_var, b.var(acc_i)})));
            lp.body.push_back(TileBuilder::assign(acc, b.op(TOp::Where, {b.var(better), v, a})));
          } else if (!comps[k].empty()) {
            lp.body.push_back(TileBuilder::assign(parts[k], b.add(b.var(parts[k]), v)));
            // after the chunks of a block: t = acc + part; comp += what t lost of the smaller operand; acc = t
            const TExpr* pv = b.var(parts[k]);
            std::string t = ve.fresh("t");
            after.push_back(TileBuilder::assign(t, b.add(a, pv)));
            const TExpr* tv = b.var(t);
            const TExpr* lost_p = b.add(b.op(TOp::Sub, {a, tv}), pv);
            const TExpr* lost_a = b.add(b.op(TOp::Sub, {pv, tv}), a);
            const TExpr* a_bigger = b.op(TOp::Ge, {b.op(TOp::Abs, {a}), b.op(TOp::Abs, {pv})});
            after.push_back(TileBuilder::assign(
                comps[k], b.add(b.var(comps[k]), b.op(TOp::Where, {a_bigger, lost_p, lost_a}))));
            after.push_back(TileBuilder::assign(acc, tv));
          } else {
            if (!online_accs[k].empty()) {
              // Online softmax: the lane's sum of exp(y - m) against its running max m. One exp per element,
              // e = exp(min(y, m) - max(y, m)): y above m rescales the sum (s * e + 1), else adds its own term
              // (y == m, -inf included, adds 1: a lane of -inf counts its elements, scaled by exp(-inf - max) = 0
              // afterwards, or NaN for a column of -inf, as in PyTorch; a NaN makes e, the sum and m NaN).
              if (v->op != TOp::Var) {
                std::string y = ve.fresh("y");
                lp.body.push_back(TileBuilder::assign(y, v));
                v = b.var(y);
              }
              lp.body.push_back(TileBuilder::comment(
                  "online softmax: each lane's sum of exp against its running max, rescaled when the max grows"));
              std::string e = ve.fresh("e");
              const TExpr* gap = b.op(TOp::Sub, {b.op(TOp::Minimum, {v, a}), b.op(TOp::NanMaximum, {v, a})});
              lp.body.push_back(TileBuilder::assign(
                  e, b.op(TOp::Exp, {b.op(TOp::Where, {b.op(TOp::Eq, {v, a}), b.f(0.0), gap})})));
              const TExpr* sv = b.var(online_accs[k]);
              const TExpr* ev = b.var(e);
              lp.body.push_back(TileBuilder::assign(
                  online_accs[k], b.op(TOp::Where, {b.op(TOp::Gt, {v, a}), b.add(b.mul(sv, ev), b.f(1.0)),
                                                    b.add(sv, ev)})));
            }
            // (a lane's floating max/min turns NaN at its first NaN and stays NaN)
            TOp combine = lane_combine(red->op, is_floating(red->src[0]->dtype));
            if (grouped[k]) {
              const std::string split = "[BLOCK_M, BLOCK_R // " + std::to_string(kDotGroup) + ", " +
                                        std::to_string(kDotGroup) + "]";
              const TExpr* groups = b.reduce(TOp::Sum, b.call("tl.reshape", {v, b.var(split)}), 2);
              lp.body.push_back(TileBuilder::assign(acc, b.add(a, b.cast(groups, DType::Float64))));
              continue;
            }
            lp.body.push_back(TileBuilder::assign(acc, b.op(combine, {a, v})));
          }
        }
      };
      if (peeled) {
        // whole, aligned chunks from the row's first 16-byte boundary (loads as vectors), then its head and
        // its tail as two masked chunks
        std::string head = ve.fresh("head"), end = ve.fresh("aligned_end");
        body.push_back(TileBuilder::assign(head, peel.head));
        const TExpr* whole_chunks = b.op(TOp::FloorDiv, {b.op(TOp::Sub, {R, b.var(head)}), block_r});
        body.push_back(TileBuilder::assign(end, b.add(b.var(head), b.mul(whole_chunks, block_r))));
        outer.start = b.var(head);
        outer.stop = b.var(end);
        setup_chunk(b.var(loop.var), loop.body, true);
        ve.aligned.dim = p.reduced[0];
        ve.aligned.start = b.var(loop.var);
        ve.aligned.lanes = b.expand(b.arange(block_r), red_index);
        ve.aligned.vec = p.peel_vec;
        ve.aligned.residues = p.peel_residues;
        ve.aligned.row = peel.row_index;
        accumulate(loop);
        ve.aligned = {};
        TStmt edges{TStmtKind::For};
        edges.var = "e";
        edges.start = b.i(0);
        edges.stop = b.i(2);
        edges.step = b.i(1);
        // (unrolled: as a loop, Triton kept both edge chunks' addresses live across it, 116 registers a thread
        // against 48 unrolled for torch.mv over [24001, 40009] on [1, 8192] tiles, ptxas for sm_90a)
        edges.unroll = true;
        std::string e0 = ve.fresh("edge"), e1 = ve.fresh("edge_end");
        edges.body.push_back(TileBuilder::assign(e0, b.mul(b.var("e"), b.var(end))));
        edges.body.push_back(TileBuilder::assign(
            e1, b.add(b.var(head), b.mul(b.var("e"), b.op(TOp::Sub, {R, b.var(head)})))));
        setup_chunk(b.var(e0), edges.body, false, b.var(e1));
        accumulate(edges);
        body.push_back(std::move(outer));
        outer = std::move(edges);
      } else {
        setup_chunk(b.var(loop.var), loop.body);
        accumulate(loop);
      }
      if (blocked) {
        outer.body.push_back(std::move(inner));
        for (auto& st : after) outer.body.push_back(std::move(st));
      }
      body.push_back(std::move(outer));
      ve.out = &body;
      std::map<const Node*, const TExpr*> extremes;  // each argmax/argmin's extreme value
      for (size_t k = 0; k < reds.size(); ++k) {
        const Node* red = reds[k];
        if (accs[k].empty()) continue;  // (after its argmax, below)
        std::string name = ve.fresh(ValueEmitter::value_name(red->op));
        if (!acc_is[k].empty()) {
          // (a split row's chunk stores its extreme value too, NaN when the chunk holds one)
          body.push_back(
              TileBuilder::assign(name, arg_pick(red, b.var(accs[k]), b.var(acc_is[k]), body, &extremes[red])));
          if (split) chunk_value[red] = extremes[red];
        } else if (!comps[k].empty()) {
          // The lanes are added in fp64 (a few per output), so the result is the lanes' sum rounded once. An
          // infinite or NaN lane sum makes its compensation NaN: such a lane keeps its plain sum.
          const TExpr* acc = b.var(accs[k]);
          const TExpr* acc64 = b.cast(acc, DType::Float64);
          const TExpr* finite = b.op(TOp::Eq, {b.op(TOp::Sub, {acc, acc}), b.f(0.0)});
          const TExpr* lane =
              b.op(TOp::Where, {finite, b.add(acc64, b.cast(b.var(comps[k]), DType::Float64)), acc64});
          body.push_back(TileBuilder::assign(
              name, b.cast(b.reduce(reduce_op(red->op), lane, red_axis), DType::Float32)));
        } else if (grouped[k]) {
          const TExpr* lanes = b.call("tl.reshape", {b.var(accs[k]), b.var(groups_2d)});
          body.push_back(TileBuilder::assign(name, b.cast(b.reduce(TOp::Sum, lanes, red_axis), DType::Float32)));
        } else {
          body.push_back(TileBuilder::assign(name, reduce_value(red, b.var(accs[k]))));
        }
        done[red] = b.var(name);
        if (!online_accs[k].empty()) {
          // the lanes' sums rescaled to the column's max: sum(s * exp(m - max)) (m == max, -inf included: 1)
          const TExpr* m = b.var(accs[k]);
          const TExpr* scale = b.op(TOp::Exp, {b.op(TOp::Where, {b.op(TOp::Eq, {m, done[red]}), b.f(0.0),
                                                                  b.op(TOp::Sub, {m, done[red]})})});
          std::string total = ve.fresh(ValueEmitter::value_name(Op::Sum));
          body.push_back(TileBuilder::assign(
              total, b.reduce(TOp::Sum, b.mul(b.var(online_accs[k]), scale), red_axis)));
          done[online.at(red)] = b.var(total);
        }
      }
      for (const Node* red : reds) {
        if (const Node* t = twin(red)) {
          done[red] = done.at(t);
          if (chunk_value.count(t)) chunk_value[red] = chunk_value.at(t);
        } else if (rides(red)) {
          done[red] = extremes.at(arg_sibling(red, reds));
        }
      }
    }
    if (split) {
      // Partials at work[row, part, reduction] (values) and index[row, part, reduction] (argmax/argmin); a
      // column block's at work[col_block, part, reduction, lane].
      bool any_arg = std::any_of(reductions.begin(), reductions.end(),
                                 [](const Node* red) { return red->op == Op::ArgMax || red->op == Op::ArgMin; });
      partials_scratch(job, any_arg, p.m * i_blocks);
      int64_t slots = static_cast<int64_t>(reductions.size());
      std::string n = std::to_string(p.m * i_blocks * parts * slots * (p.rows ? 1 : p.block_i));
      if (any_arg) {
        // (one allocation for both: the indices are its second half, seen as int32)
        job.launch.setup.push_back("work = torch.empty((2 * " + n + ",), device={device}, dtype=torch.float32)");
        job.launch.setup.push_back("index = work[" + n + ":].view(torch.int32)");
      } else {
        job.launch.setup.push_back("work = torch.empty((" + n + ",), device={device}, dtype=torch.float32)");
      }
      const TExpr* parts_param = b.var("PARTS");
      auto slot = [&](const char* buffer, const TExpr* program, int64_t k) {
        const TExpr* unit = b.var(p.rows ? "rows" : line);
        const TExpr* at = b.add(b.mul(unit, parts_param), program);
        if (slots > 1) at = b.add(b.mul(at, b.i(slots)), b.i(k));
        if (!p.rows) at = b.add(b.mul(at, b.var("BLOCK_I")), b.var("lanes"));
        return b.add(b.var(buffer), at);
      };
      body.push_back(TileBuilder::comment(
          p.rows ? "this program's partials, then count in on the row's counter"
                 : "this program's partials, then count in on the column block's counter"));
      for (int64_t k = 0; k < slots; ++k) {
        const Node* red = reductions[k];
        bool arg = red->op == Op::ArgMax || red->op == Op::ArgMin;
        body.push_back(TileBuilder::store(slot("work_ptr", b.var("part"), k), arg ? chunk_value.at(red) : done.at(red), nullptr));
        if (arg) body.push_back(TileBuilder::store(slot("index_ptr", b.var("part"), k), done.at(red), nullptr));
      }
      finish = count_in(
          body, b, job.arena, b.add(b.var("count_ptr"), b.var(line)), parts_param,
          p.rows ? "the row's last program: combine its partials in index order; zero the counter for the next call"
                 : "the column block's last program: combine its partials in row order; zero the counter for the "
                   "next call");
      // A row of more than kSplitFinishBlock parts is combined in blocks of that many, each lane keeping its
      // running extreme like a looped row's (a [1, PARTS_P2] tile of 16432 parts took 255 registers and spilled,
      // and the whole kernel runs with the registers of its largest path: argm_whole_tensor's were 2 programs a
      // multiprocessor); blocks keep the index order, so the rules hold.
      const bool looped_finish = p.rows && next_pow2(parts) > kSplitFinishBlock &&
          std::all_of(reductions.begin(), reductions.end(), [](const Node* red) {
            return red->op == Op::ArgMax || red->op == Op::ArgMin || red->op == Op::Max || red->op == Op::Min;
          });
      std::vector<TStmt>* finish_out = &finish.body;
      TStmt finish_loop{TStmtKind::For};
      const TExpr* in_row = nullptr;
      if (looped_finish) {
        const TExpr* block = job.constexpr_param("FINISH_BLOCK", kSplitFinishBlock);
        finish_loop.var = "q0";
        finish_loop.start = b.i(0);
        finish_loop.stop = parts_param;
        finish_loop.step = block;
        finish_loop.body.push_back(TileBuilder::assign(
            "part_index", b.add(b.var("q0"), b.expand(b.arange(block), red_index))));
        if (parts % kSplitFinishBlock != 0) in_row = b.lt(b.var("part_index"), parts_param);
        finish_out = &finish_loop.body;
      } else {
        finish.body.push_back(TileBuilder::assign("part_index", b.expand(b.arange(b.var("PARTS_P2")), red_index)));
        if (next_pow2(parts) != parts) in_row = b.lt(b.var("part_index"), parts_param);
      }
      auto load_partials = [&](const char* buffer, int64_t k, const TExpr* other) {
        TExpr load{TOp::Load, "volatile"};
        load.args = {slot(buffer, b.var("part_index"), k)};
        if (in_row) load.args.insert(load.args.end(), {in_row, other});
        std::string name = ve.fresh("partials");
        finish_out->push_back(TileBuilder::assign(name, job.arena.make(load)));
        return b.var(name);
      };
      if (looped_finish) {
        std::vector<std::string> finish_accs, finish_idx;
        for (int64_t k = 0; k < slots; ++k) {
          const Node* red = reductions[k];
          bool arg = red->op == Op::ArgMax || red->op == Op::ArgMin;
          std::string acc = ve.fresh("acc"), acc_i = arg ? ve.fresh("acc_idx") : "";
          finish_accs.push_back(acc);
          finish_idx.push_back(acc_i);
          const char* shape = "[BLOCK_M, FINISH_BLOCK]";
          finish.body.push_back(TileBuilder::assign(acc, b.full(shape, neutral(b, red->op, DType::Float32), DType::Float32)));
          if (arg) finish.body.push_back(TileBuilder::assign(acc_i, b.zeros(shape, DType::Int32)));
          const TExpr* values = load_partials("work_ptr", k, neutral(b, red->op, DType::Float32));
          const TExpr* a = b.var(acc);
          if (arg) {
            const TExpr* index = load_partials("index_ptr", k, R);
            std::string better = ve.fresh("better");
            finish_loop.body.push_back(TileBuilder::assign(better, arg_better(red, values, a)));
            finish_loop.body.push_back(TileBuilder::assign(acc_i, b.op(TOp::Where, {b.var(better), index, b.var(acc_i)})));
            finish_loop.body.push_back(TileBuilder::assign(acc, b.op(TOp::Where, {b.var(better), values, a})));
          } else {
            finish_loop.body.push_back(TileBuilder::assign(
                acc, b.op(red->op == Op::Max ? TOp::NanMaximum : TOp::NanMinimum, {a, values})));
          }
        }
        finish.body.push_back(std::move(finish_loop));
        for (int64_t k = 0; k < slots; ++k) {
          const Node* red = reductions[k];
          std::string name = ve.fresh(ValueEmitter::value_name(red->op));
          const TExpr* acc = b.var(finish_accs[k]);
          finish.body.push_back(TileBuilder::assign(
              name, finish_idx[k].empty() ? reduce_value(red, acc)
                                          : arg_pick(red, acc, b.var(finish_idx[k]), finish.body)));
          done[red] = b.var(name);
        }
      }
      for (int64_t k = 0; k < slots && !looped_finish; ++k) {
        const Node* red = reductions[k];
        const TExpr* values = load_partials("work_ptr", k, neutral(b, red->op, DType::Float32));
        std::string name = ve.fresh(ValueEmitter::value_name(red->op));
        if (red->op == Op::ArgMax || red->op == Op::ArgMin) {
          const TExpr* index = load_partials("index_ptr", k, R);
          finish.body.push_back(TileBuilder::assign(name, arg_pick(red, values, index, finish.body)));
        } else {
          finish.body.push_back(TileBuilder::assign(name, reduce_value(red, values)));
        }
        done[red] = b.var(name);
      }
      ve.out = &finish.body;
    }
    // Reduced outputs are stored once; full-size outputs need one more pass over the row. Values of the
    // reduced shape (log(sum), 1 / sum) are computed once here, not in every chunk.
    ve.clear_cache();
    for (auto& [node, value] : done) ve.keep_in_cache(node, group_map(g, node), value);
    ve.axis_mask[red_axis] = nullptr;
    for (auto* n : g.nodes) {
      if (n->shape != g.space && op_kind(n->op) != OpKind::Reduce && op_kind(n->op) != OpKind::View) {
        done[n] = ve.value(n, group_map(g, n));
      }
    }
    std::vector<const Node*> full_outputs;
    ve.axis_mask[red_axis] = nullptr;
    for (auto* o : g.outputs) {
      if (o->shape == g.space) full_outputs.push_back(o);
      else ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
    }
    if (!full_outputs.empty()) {
      TStmt loop{TStmtKind::For};
      loop.var = "r0";
      loop.start = b.i(0);
      loop.stop = R;
      loop.step = block_r;
      setup_chunk(b.var("r0"), loop.body);
      ve.out = &loop.body;
      ve.clear_cache();
      for (auto& [node, value] : done) ve.keep_in_cache(node, group_map(g, node), value);
      for (auto* o : full_outputs) ve.store(o, group_map(g, o), ve.value(o, group_map(g, o)));
      body.push_back(std::move(loop));
      ve.out = &body;
    }
    if (split) body.push_back(std::move(finish));
    ve.out = &body;
  }
  if (row_loop) job.kernel.body.push_back(std::move(tiles));
  if (coop) job.kernel.body.push_back(std::move(coop_tiles));
  int64_t tile = (p.rows ? p.block_m : p.block_i) * p.block_r;
  int64_t warps = usual_warps(tile, coop);
  if (!p.rows && (p.persistent || coop)) warps = std::min(warps, kColumnWarps);
  if (p.column_warps) warps = p.column_warps;
  if (!p.rows && p.persistent && !coop && tile <= kColumnOneWarpTile) warps = 1;
  if (p.row_warps) warps = p.row_warps;
  job.launch.num_warps = arg_warps ? arg_warps : static_cast<int>(warps);
}

}  // namespace tz
