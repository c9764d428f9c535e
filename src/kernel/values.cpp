// ValueEmitter: pointwise ops, strided loads through views, stores (see values.h).
#include "kernel/values.h"

#include <algorithm>
#include <cmath>

#include "graph/view.h"

namespace tz {

bool computes_in_f32(DType t) { return is_floating(t) && t != DType::Float64; }

std::string KernelBuffers::pointer(const Node* root) {
  for (const auto& [node, name] : used) {
    if (node == root) return name;
  }
  auto it = python_name.find(root);
  TZ_ASSERT(it != python_name.end(), std::string("kernel reads a tensor the planner did not name: ") + op_name(root->op));
  // A buffer that the kernel both reads and updates is one pointer.
  for (const auto& [node, name] : used) {
    if (python_name.at(node) == it->second) return name;
  }
  std::string stem = it->second;
  if (stem.rfind("self.", 0) == 0) stem = stem.substr(5);
  std::string clean;  // self.seq[0].weight -> seq_0_weight
  for (char c : stem) {
    if (c == '.' || c == '[') clean += '_';
    else if (c != ']') clean += c;
  }
  std::string name = clean + "_ptr";
  used.emplace_back(root, name);
  return name;
}

ValueEmitter::ValueEmitter(TileBuilder& b, const Schedule& s, const Group& g, KernelBuffers& buffers)
    : b_(b), s_(s), g_(g), buffers_(buffers) {
  rep_.resize(g.space.size());
  pinned_.assign(g.space.size(), 0);
  for (size_t d = 0; d < rep_.size(); ++d) rep_[d] = g.space[d] == 1 ? -1 : static_cast<int>(d);
  index.assign(g.space.size(), nullptr);
  axis_of.assign(g.space.size(), -1);
}

bool ValueEmitter::in_group(const Node* n) const {
  return s_.group_of[n->id] == g_.id || std::find(g_.inlined.begin(), g_.inlined.end(), n) != g_.inlined.end();
}

// A value that the kernel recomputes (inlined) but also reads through a flip, slice or pad (views that move
// indices, so no per-dim recomputation exists) is read there from memory: fusion materialized it for that
// read (fuse.cpp, read_from_memory), e.g. `y.flip(0) + y` with y = x * 2 recomputed for the second operand.
bool ValueEmitter::reads_memory(const Node* n) const {
  const Node* root = view_root(n);
  if (op_kind(root->op) == OpKind::Leaf || !in_group(root)) return true;
  if (s_.group_of[root->id] == g_.id) return false;
  for (const Node* v = n; v != root; v = v->src[0]) {
    std::vector<int> map(v->shape.size(), -1), src_map;
    if (!view_source_map(v, map, src_map)) return true;
  }
  return false;
}

std::string ValueEmitter::key(const Node* n, const std::vector<int>& map) const {
  std::string k = std::to_string(n->id) + ":";
  for (int m : map) k += std::to_string(m) + ",";
  return k;
}

// Variable stems for computed values; never a Python builtin (sum, max, min, abs, pow).
std::string ValueEmitter::value_name(Op op) {
  switch (op) {
    case Op::Sum: return "red_sum";
    case Op::Prod: return "red_prod";
    case Op::Max: return "red_max";
    case Op::Min: return "red_min";
    case Op::ArgMax: return "red_argmax";
    case Op::ArgMin: return "red_argmin";
    case Op::Abs: return "absx";
    case Op::Pow: return "power";
    case Op::MaxPool:
    case Op::AvgPool:
    case Op::AdaptiveMaxPool:
    case Op::AdaptiveAvgPool: return "pooled";
    case Op::Gather: return "gathered";
    default: return std::string(op_name(op)).substr(0, 7);
  }
}

std::string ValueEmitter::fresh(const std::string& stem) {
  // A stem that ends in a digit (log2, exp2) can meet another stem's numbered name (exp + 2): skip those.
  for (;;) {
    int n = names_[stem]++;
    std::string name = n == 0 ? stem : stem + std::to_string(n);
    if (taken_.insert(name).second) return name;
  }
}

std::vector<int64_t> ValueEmitter::access_strides(const Node* view, const std::vector<int>& map) const {
  std::vector<int64_t> strides;
  TZ_ASSERT(view_strides(view, strides), "a view that needs a copy reached a kernel");
  std::vector<int64_t> per_dim(g_.space.size(), 0);
  for (size_t j = 0; j < map.size(); ++j) {
    if (map[j] >= 0 && view->shape[j] != 1) per_dim[map[j]] += strides[j];
  }
  return per_dim;
}

void ValueEmitter::collect(const Node* n, const std::vector<int>& map) {
  const Node* root = view_root(n);
  // A padded dim that the kernel iterates keeps an index of its own for the inside test; one that it does not
  // (map -1: a prefix slice kept its first row) is read at index 0, where compute() knows inside or outside.
  for (const PadRange& pad : view_pads(n)) {
    if (map[pad.dim] >= 0) pinned_[map[pad.dim]] = 1;
  }
  if (reads_memory(n)) {
    if (root->op != Op::Const) accesses_.push_back(access_strides(n, map));
    return;
  }
  if (op_kind(n->op) == OpKind::View) {
    std::vector<int> src_map;
    TZ_ASSERT(view_source_map(n, map, src_map), "fusion let through an unmappable view");
    collect(n->src[0], src_map);
    return;
  }
  if (op_kind(n->op) == OpKind::Reduce) {
    std::vector<int> full(g_.space.size());
    for (size_t d = 0; d < full.size(); ++d) full[d] = static_cast<int>(d);
    collect(n->src[0], full);
    return;
  }
  OpKind kind = op_kind(n->op);
  // the matmul, conv and attention kinds read their operands themselves
  if (kind == OpKind::Matmul || kind == OpKind::Conv || kind == OpKind::Attention) return;
  if (op_kind(n->op) == OpKind::Window) {
    // The window kind reads its input itself; its kept (leading) dims walk the input by strides, which
    // decides whether they merge. Pooled dims never merge.
    std::vector<int> kept = map;
    for (int j = n->rank() - pooled_dims(n); j < n->rank(); ++j) kept[j] = -1;
    accesses_.push_back(access_strides(n->src[0], kept));
    return;
  }
  if (n->op == Op::Gather) {
    // x is read at the index's positions along the gathered dim and by strides along the others: only those
    // decide merging (the gathered dim's own index is never used for x).
    accesses_.push_back(access_strides(n->src[0], gather_map(n, map)));
    collect(n->src[1], map);
    return;
  }
  for (auto* src : n->src) collect(src, broadcast_map(src->shape, n->shape, map));
}

void ValueEmitter::collect_store(const Node* n, const std::vector<int>& map) {
  std::vector<int64_t> strides = contiguous_strides(n->shape);
  std::vector<int64_t> per_dim(g_.space.size(), 0);
  for (size_t j = 0; j < map.size(); ++j) {
    if (map[j] >= 0 && n->shape[j] != 1) per_dim[map[j]] += strides[j];
  }
  accesses_.push_back(per_dim);
  is_store_.resize(accesses_.size(), 0);
  is_store_.back() = 1;
}

void ValueEmitter::merge_dims(const std::function<bool(int)>& can_merge) {
  const Shape& k = g_.space;
  // Walk from the innermost dim outwards; d joins the run of the next non-unit dim when every access
  // steps over d exactly as far as over that whole run.
  int run_rep = -1;
  int64_t run_size = 1;  // product of sizes from the run's rep down... measured in rep strides
  int last = -1;
  for (int d = static_cast<int>(k.size()) - 1; d >= 0; --d) {
    if (k[d] == 1) {
      rep_[d] = -1;
      continue;
    }
    bool merge = run_rep >= 0 && can_merge(d) && !pinned_[d] && !pinned_[last] && (last == d + 1 || [&] {
                   for (int u = d + 1; u < last; ++u) {
                     if (k[u] != 1) return false;
                   }
                   return true;
                 }());
    if (merge) {
      for (const auto& a : accesses_) {
        if (a[d] != a[run_rep] * run_size) {
          merge = false;
          break;
        }
      }
    }
    if (merge) {
      rep_[d] = run_rep;
      run_size *= k[d];
    } else {
      rep_[d] = d;
      run_rep = d;
      run_size = k[d];
    }
    last = d;
  }
}

const TExpr* ValueEmitter::offset(const std::vector<int64_t>& strides) {
  // An access laid out exactly like the iteration space uses the flat index as is.
  if (flat_index && numel(g_.space) > 1) {
    std::vector<int64_t> dense = contiguous_strides(g_.space);
    bool same = true;
    for (size_t d = 0; d < strides.size(); ++d) same = same && (g_.space[d] == 1 || strides[d] == dense[d]);
    if (same) return flat_index;
  }
  const TExpr* off = nullptr;
  for (size_t d = 0; d < strides.size(); ++d) {
    if (rep_[d] != static_cast<int>(d) || strides[d] == 0) continue;
    TZ_ASSERT(index[d] != nullptr, "kernel dim without an index expression");
    const TExpr* term = strides[d] == 1 ? index[d] : b_.mul(index[d], b_.i(strides[d]));
    off = off ? b_.add(off, term) : term;
  }
  return off;
}

bool ValueEmitter::aligned_load(const std::vector<int64_t>& strides, int64_t base) const {
  const AlignedRun& a = aligned;
  if (a.dim < 0 || strides[static_cast<size_t>(a.dim)] != 1 || base % a.vec != 0) return false;
  // (every dim the offset walks: a stride of 0 where the reference's is not congruent to 0 breaks the alignment,
  // as for the vector of a mat-vec, broadcast over the rows)
  for (size_t d = 0; d < strides.size(); ++d) {
    if (static_cast<int>(d) == a.dim || rep_[d] != static_cast<int>(d) || run_size(static_cast<int>(d)) <= 1) continue;
    if (((strides[d] % a.vec) + a.vec) % a.vec != a.residues[d]) return false;
  }
  return true;
}

const TExpr* ValueEmitter::aligned_offset(const std::vector<int64_t>& strides) {
  const TExpr* start = aligned.start;
  for (size_t d = 0; d < strides.size(); ++d) {
    if (static_cast<int>(d) == aligned.dim || rep_[d] != static_cast<int>(d) || strides[d] == 0) continue;
    TZ_ASSERT(d < aligned.row.size() && aligned.row[d], "an aligned load along a dim without a scalar row index");
    const TExpr* idx = aligned.row[d];
    start = b_.add(strides[d] == 1 ? idx : b_.mul(idx, b_.i(strides[d])), start);
  }
  return b_.add(b_.call("tl.multiple_of", {start, b_.i(aligned.vec)}), aligned.lanes);
}

const TExpr* ValueEmitter::mask_for(const std::vector<int64_t>& strides) const {
  std::vector<char> used(axis_mask.size(), 0);
  for (size_t d = 0; d < strides.size(); ++d) {
    if (rep_[d] == static_cast<int>(d) && strides[d] != 0 && axis_of[d] >= 0) used[axis_of[d]] = 1;
  }
  const TExpr* mask = nullptr;
  for (size_t a = 0; a < axis_mask.size(); ++a) {
    if (used[a] && axis_mask[a]) mask = mask ? b_.band(mask, axis_mask[a]) : axis_mask[a];
  }
  return mask;
}

void ValueEmitter::keep_in_cache(const Node* n, const std::vector<int>& map, const TExpr* value) {
  cache_[key(n, map)] = value;
}

const TExpr* ValueEmitter::value(const Node* n, const std::vector<int>& map) {
  std::string k = key(n, map);
  auto it = cache_.find(k);
  if (it != cache_.end()) return it->second;
  const TExpr* v = compute(n, map);
  if (v->op != TOp::Var && v->op != TOp::Int && v->op != TOp::Float) {
    std::string name;
    const Node* root = view_root(n);
    if (root->op == Op::Const) {
      name = fresh("fill");  // a padded constant: the constant inside its range, zero outside
    } else if (root->op == Op::Iota) {
      name = fresh("index");  // the kernel's index along a dim, an expression in a matmul's or conv's epilogue
    } else if (reads_memory(n)) {
      name = buffers_.pointer(root);
      name = fresh(name.substr(0, name.size() - 4));  // "x_ptr" -> "x"
    } else {
      name = fresh(picks.count(n) ? "picked" : value_name(n->op));
    }
    out->push_back(TileBuilder::assign(name, v));
    v = b_.var(name);
  }
  cache_[k] = v;
  return v;
}

std::vector<int> ValueEmitter::gather_map(const Node* gather, const std::vector<int>& map) {
  std::vector<int> kept = map;
  kept[static_cast<size_t>(gather->attr.ints[0])] = -1;
  return kept;
}

bool ValueEmitter::varies_along(const Node* n, const std::vector<int>& map, const std::vector<int>& dims) const {
  auto among = [&](int d) { return d >= 0 && std::find(dims.begin(), dims.end(), d) != dims.end(); };
  const Node* root = view_root(n);
  if (!view_pads(n).empty()) return true;  // (reads its index to decide inside or outside)
  if (root->op == Op::Const) return false;
  if (root->op == Op::Iota && n == root) return among(map[0]);
  if (root->op != Op::Iota && (op_kind(root->op) == OpKind::Leaf || !in_group(root))) {
    std::vector<int64_t> strides = access_strides(n, map);
    return std::any_of(dims.begin(), dims.end(), [&](int d) { return strides[d] != 0; });
  }
  if (op_kind(n->op) == OpKind::View) {
    std::vector<int> src_map;
    return !view_source_map(n, map, src_map) || varies_along(n->src[0], src_map, dims);
  }
  if (op_kind(n->op) == OpKind::Reduce) return false;  // (a reduction's result is constant along what it reduces)
  if (n->op == Op::Gather) {
    std::vector<int64_t> strides = access_strides(n->src[0], gather_map(n, map));
    return varies_along(n->src[1], map, dims) ||
           std::any_of(dims.begin(), dims.end(), [&](int d) { return strides[d] != 0; });
  }
  OpKind kind = op_kind(n->op);
  if (kind != OpKind::Unary && kind != OpKind::Binary && kind != OpKind::Ternary) return true;
  if (n->op == Op::Tri) return true;  // (compares its row and column indices)
  return std::any_of(n->src.begin(), n->src.end(), [&](const Node* src) {
    return varies_along(src, broadcast_map(src->shape, n->shape, map), dims);
  });
}

const TExpr* ValueEmitter::compute(const Node* n, const std::vector<int>& map) {
  const Node* root = view_root(n);
  // A pad reads zero outside its source's range of indices (a pad of a pad: outside either range).
  const TExpr* inside = nullptr;
  const TExpr* zero = is_floating(root->dtype) ? b_.f(0.0) : b_.i(0);
  for (const PadRange& pad : view_pads(n)) {
    int k = map[pad.dim];
    if (k < 0 || g_.space[k] == 1) {
      // The kernel reads this dim at index 0 only (e.g. x[:, :1] of a stack): inside or outside is known here.
      if (pad.lo > 0 || pad.hi <= 0) return zero;
    } else {
      TZ_ASSERT(rep_[k] == k && index[k] != nullptr, "a padded dim without its own index");
      if (pad.lo > 0) inside = b_.band(inside, b_.op(TOp::Ge, {index[k], b_.i(pad.lo)}));
      if (pad.hi < n->shape[pad.dim]) inside = b_.band(inside, b_.lt(index[k], b_.i(pad.hi)));
    }
  }
  if (root->op == Op::Const) {
    // A padded true (F.pad's mask of where the input lies) is the range test itself, a bool.
    if (inside && root->dtype == DType::Bool && root->attr.f != 0.0) return inside;
    const TExpr* c = is_floating(root->dtype) ? b_.f(root->attr.f) : b_.i(static_cast<int64_t>(root->attr.f));
    return inside && root->attr.f != 0.0 ? b_.op(TOp::Where, {inside, c, zero}) : c;
  }
  if (root->op == Op::Iota) {
    // The index of the kernel dim it maps to; collect() recorded it as a unit-stride access, so that dim
    // is never merged with a neighbour and has an index expression of its own.
    if (n != root) {
      std::vector<int> src_map;
      TZ_ASSERT(view_source_map(n, map, src_map), "fusion let through an unmappable view of an iota");
      return value(n->src[0], src_map);
    }
    int d = map[0];
    if (d < 0 || rep_[d] < 0) return b_.i(0);
    TZ_ASSERT(rep_[d] == d && index[d] != nullptr, "iota along a merged kernel dim");
    return index[d];
  }
  if (reads_memory(n)) {
    std::vector<int64_t> strides = access_strides(n, map);
    const TExpr* ptr = b_.var(buffers_.pointer(root));
    int64_t base = 0;
    std::vector<int64_t> ignored;
    TZ_ASSERT(view_layout(n, ignored, base), "a view that needs a copy reached a kernel");
    // (a load along `line.dim` and program scalars only: see Line)
    bool line_load = line.dim >= 0 && !inside && strides[static_cast<size_t>(line.dim)] != 0;
    for (size_t d = 0; d < strides.size() && line_load; ++d) {
      if (static_cast<int>(d) != line.dim && rep_[d] == static_cast<int>(d) && strides[d] != 0 && axis_of[d] >= 0) {
        line_load = false;
      }
    }
    const TExpr* off;
    if (line_load) {
      const TExpr* tile_index = index[static_cast<size_t>(line.dim)];
      index[static_cast<size_t>(line.dim)] = line.index;
      off = offset(strides);
      index[static_cast<size_t>(line.dim)] = tile_index;
    } else {
      off = offset(strides);
    }
    if (!line_load && aligned_load(strides, base) && !inside) {
      off = aligned_offset(strides);
      base = 0;
    }
    if (base != 0 && off) off = base > 0 ? b_.add(off, b_.i(base)) : b_.op(TOp::Sub, {off, b_.i(-base)});
    else if (base != 0) off = b_.i(base);
    if (off) ptr = b_.add(ptr, off);
    // A pad of one value read everywhere (a broadcast scalar) loads it once and selects after the load: a
    // block mask on a scalar pointer is an error in Triton.
    const TExpr* select = off && off->op != TOp::Int ? nullptr : inside;
    if (select) inside = nullptr;
    const TExpr* mask = line_load ? line.mask : b_.band(mask_for(strides), inside);
    const TExpr* v = b_.load(ptr, mask, inside ? zero : nullptr);
    if (line_load) v = b_.expand(v, line.expand);
    // Floats compute in float32 whatever the tensor's type at run time (ModelNew may be cast to half).
    if (is_floating(root->dtype)) v = b_.cast(v, DType::Float32);
    if (select) v = b_.op(TOp::Where, {select, v, zero});
    return v;
  }
  if (op_kind(n->op) == OpKind::View) {
    std::vector<int> src_map;
    TZ_ASSERT(view_source_map(n, map, src_map), "fusion let through an unmappable view");
    return value(n->src[0], src_map);
  }
  if (auto it = picks.find(n); it != picks.end()) return rounded_like_eager(n, picked(it->second));
  if (op_kind(n->op) == OpKind::Reduce || op_kind(n->op) == OpKind::Scan) {
    TZ_ASSERT(static_cast<bool>(on_reduce), "reduction or scan in a kernel of another kind");
    return rounded_like_eager(n, on_reduce(n));
  }
  if (op_kind(n->op) == OpKind::Window) {
    TZ_ASSERT(static_cast<bool>(on_window), "pooling in a kernel that does not pool");
    return on_window(n);
  }
  if (n->op == Op::Gather) return gather(n, map);
  std::vector<const TExpr*> args;
  for (auto* src : n->src) args.push_back(value(src, broadcast_map(src->shape, n->shape, map)));
  if (n->op == Op::Tri) {
    // tril(x, k) => where(col - row <= k, x, 0); triu(x, k) => where(col - row >= k, x, 0)
    int r = n->rank();
    const TExpr* diff = b_.op(TOp::Sub, {dim_index(map[r - 1]), dim_index(map[r - 2])});
    const TExpr* keep = b_.op(n->attr.ints[1] ? TOp::Ge : TOp::Le, {diff, b_.i(n->attr.ints[0])});
    return b_.op(TOp::Where, {keep, args[0], is_floating(n->dtype) ? b_.f(0.0) : b_.i(0)});
  }
  return rounded_like_eager(n, pointwise(n, std::move(args)));
}

std::vector<int> ValueEmitter::space_map() const {
  std::vector<int> map(g_.space.size());
  for (size_t d = 0; d < map.size(); ++d) map[d] = g_.space[d] == 1 ? -1 : static_cast<int>(d);
  return map;
}

// sum(where(iota == t, v, 0)) over kernel dim `dim` (or t == iota), t an integer constant along `dim`:
// cross entropy's x[target] - max and weight[target] (trace/losses.cpp).
bool ValueEmitter::match_pick(const Node* red, Pick& pick) const {
  if (red->op != Op::Sum || red->attr.ints.size() != 1 || red->attr.ints != g_.axes || !is_floating(red->dtype)) {
    return false;
  }
  const Node* sel = red->src[0];
  if (sel->op != Op::Where || sel->shape != g_.space || sel->src[0]->op != Op::Eq) return false;
  // (a where another kernel wrote, e.g. a matmul's epilogue: its operands may exist nowhere in memory)
  if (!in_group(sel)) return false;
  const Node* zero = view_root(sel->src[2]);
  if (zero->op != Op::Const || zero->attr.f != 0.0) return false;
  const int dim = static_cast<int>(red->attr.ints[0]);
  if (rep_[static_cast<size_t>(dim)] != dim) return false;  // (a dim of its own: the iota pins it)
  const Node* eq = sel->src[0];
  const std::vector<int> full = space_map();
  const std::vector<int> eq_map = broadcast_map(eq->shape, sel->shape, full);
  for (int side = 0; side < 2; ++side) {
    const Node* iota = eq->src[static_cast<size_t>(side)];
    const Node* at = eq->src[static_cast<size_t>(1 - side)];
    bool index_only = true;  // the iota itself through reshapes and broadcasts (no view that moves indices)
    for (const Node* v = iota; op_kind(v->op) == OpKind::View; v = v->src[0]) {
      index_only = index_only && (v->op == Op::Reshape || v->op == Op::Expand);
    }
    if (!index_only || view_root(iota)->op != Op::Iota || is_floating(at->dtype) || at->dtype == DType::Bool) continue;
    std::vector<int> iota_map = broadcast_map(iota->shape, eq->shape, eq_map);
    std::vector<int> at_map = broadcast_map(at->shape, eq->shape, eq_map);
    if (!varies_along(iota, iota_map, {dim}) || varies_along(at, at_map, {dim})) continue;
    std::vector<int> value_map = broadcast_map(sel->src[1]->shape, sel->shape, full);
    if (!pickable(sel->src[1], value_map, dim)) return false;
    pick = Pick{sel->src[1], at, dim, value_map, at_map};
    return true;
  }
  return false;
}

// Can `n` be computed at one index along `dim`: pointwise over loads (no pads) and values constant along `dim`?
bool ValueEmitter::pickable(const Node* n, const std::vector<int>& map, int dim) const {
  if (!varies_along(n, map, {dim})) return true;
  if (!view_pads(n).empty()) return false;
  const Node* root = view_root(n);
  if (root->op == Op::Iota && n == root) return true;
  if (root->op != Op::Iota && reads_memory(n)) return true;
  if (op_kind(n->op) == OpKind::View) {
    std::vector<int> src_map;
    return view_source_map(n, map, src_map) && pickable(n->src[0], src_map, dim);
  }
  if (!is_pointwise(n->op) || n->op == Op::Tri) return false;
  return std::all_of(n->src.begin(), n->src.end(), [&](const Node* src) {
    return pickable(src, broadcast_map(src->shape, n->shape, map), dim);
  });
}

// Computes, with the tile's own indices, the values a pick reads that are constant along its dim (a row's max):
// value_at then finds them in the cache, and a reduction is never computed with the picked index.
void ValueEmitter::prepare_pick(const Node* n, const std::vector<int>& map, int dim) {
  if (!varies_along(n, map, {dim})) {
    value(n, map);
    return;
  }
  const Node* root = view_root(n);
  if (n == root && root->op == Op::Iota) return;
  if (root->op != Op::Iota && reads_memory(n)) return;
  if (op_kind(n->op) == OpKind::View) {
    std::vector<int> src_map;
    TZ_ASSERT(view_source_map(n, map, src_map), "a pick through an unmappable view");
    prepare_pick(n->src[0], src_map, dim);
    return;
  }
  for (auto* src : n->src) prepare_pick(src, broadcast_map(src->shape, n->shape, map), dim);
}

// v at index t along the pick's dim: the dim's index is t while v is computed (its loads masked to t in range),
// then restored; 0 where t is outside the dim.
const TExpr* ValueEmitter::picked(const Pick& pick) {
  const int dim = pick.dim;
  const int axis = axis_of[static_cast<size_t>(dim)];
  TZ_ASSERT(axis >= 0 && index[static_cast<size_t>(dim)] != nullptr, "a pick along a dim the tile does not walk");
  prepare_pick(pick.value, pick.value_map, dim);
  const TExpr* t = value(pick.at, pick.at_map);
  // (one test per target, shared by its picks: cached with the values)
  const std::string in_key = "pick_in:" + key(pick.at, pick.at_map) + std::to_string(dim);
  auto cached = cache_.find(in_key);
  if (cached == cache_.end()) {
    std::string name = fresh("pick_in");
    out->push_back(TileBuilder::assign(
        name, b_.band(b_.op(TOp::Ge, {t, b_.i(0)}), b_.lt(t, b_.i(g_.space[static_cast<size_t>(dim)])))));
    cached = cache_.emplace(in_key, b_.var(name)).first;
  }
  const TExpr* in = cached->second;
  const TExpr* saved_index = index[static_cast<size_t>(dim)];
  const TExpr* saved_mask = axis_mask[static_cast<size_t>(axis)];
  const TExpr* saved_flat = flat_index;
  AlignedRun saved_aligned = aligned;
  index[static_cast<size_t>(dim)] = t;
  axis_mask[static_cast<size_t>(axis)] = in;
  flat_index = nullptr;
  aligned = {};
  Cache memo;
  const TExpr* v = value_at(pick.value, pick.value_map, dim, memo);
  index[static_cast<size_t>(dim)] = saved_index;
  axis_mask[static_cast<size_t>(axis)] = saved_mask;
  flat_index = saved_flat;
  aligned = saved_aligned;
  return b_.op(TOp::Where, {in, v, is_floating(pick.value->dtype) ? b_.f(0.0) : b_.i(0)});
}

const TExpr* ValueEmitter::value_at(const Node* n, const std::vector<int>& map, int dim, Cache& memo) {
  if (!varies_along(n, map, {dim})) return value(n, map);  // (prepare_pick computed it)
  std::string k = key(n, map);
  if (auto it = memo.find(k); it != memo.end()) return it->second;
  const Node* root = view_root(n);
  if (root->op == Op::Iota && n == root) return index[static_cast<size_t>(dim)];
  const TExpr* v = nullptr;
  std::string stem;
  if (root->op != Op::Iota && reads_memory(n)) {
    v = compute(n, map);  // (a load at the substituted index)
    stem = buffers_.pointer(root);
    stem = stem.substr(0, stem.size() - 4);  // "x_ptr" -> "x"
  } else if (op_kind(n->op) == OpKind::View) {
    std::vector<int> src_map;
    TZ_ASSERT(view_source_map(n, map, src_map), "a pick through an unmappable view");
    return memo[k] = value_at(n->src[0], src_map, dim, memo);
  } else {
    std::vector<const TExpr*> args;
    for (auto* src : n->src) args.push_back(value_at(src, broadcast_map(src->shape, n->shape, map), dim, memo));
    v = rounded_like_eager(n, pointwise(n, std::move(args)));
    stem = value_name(n->op);
  }
  if (v->op != TOp::Var && v->op != TOp::Int && v->op != TOp::Float) {
    std::string name = fresh(stem + "_picked");
    out->push_back(TileBuilder::assign(name, v));
    v = b_.var(name);
  }
  return memo[k] = v;
}

// out[i] = x[i with i[dim] = index[i]]: the index tile (computed here or loaded), times x's stride along dim, plus
// x's offset along the other dims from the kernel's indices; x is always read from memory (fuse materializes it,
// even where another value of this kernel recomputes it). The load spans the tile axes that its pointer varies
// along (x's strides, the index's axes), masked there; an index out of range reads out of bounds, as eager CUDA.
const TExpr* ValueEmitter::gather(const Node* n, const std::vector<int>& map) {
  const Node* x = n->src[0];
  const int64_t dim = n->attr.ints[0];
  const TExpr* idx = value(n->src[1], map);
  // (an int32 index times a stride can pass 2^31 in a large x)
  if (n->src[1]->dtype == DType::Int32 && numel(view_root(x)->shape) >= (int64_t{1} << 31)) {
    idx = b_.cast(idx, DType::Int64);
  }
  std::vector<int64_t> strides = access_strides(x, gather_map(n, map)), layout;
  int64_t base = 0;
  TZ_ASSERT(view_layout(x, layout, base) && view_pads(x).empty(), "a gather's source needs a copy");
  const TExpr* off = offset(strides);
  const int64_t step = layout[static_cast<size_t>(dim)];
  const TExpr* along = step == 1 ? idx : b_.mul(idx, b_.i(step));
  off = off ? b_.add(off, along) : along;
  if (base > 0) off = b_.add(off, b_.i(base));
  if (base < 0) off = b_.op(TOp::Sub, {off, b_.i(-base)});
  std::vector<int64_t> spans = strides;  // (only which entries are nonzero matters to mask_for)
  for (size_t d = 0; d < spans.size(); ++d) {
    if (spans[d] == 0 && rep_[d] == static_cast<int>(d) && varies_along(n->src[1], map, {static_cast<int>(d)})) {
      spans[d] = 1;
    }
  }
  const TExpr* v = b_.load(b_.add(ptr_base(view_root(x)), off), mask_for(spans), nullptr);
  return is_floating(x->dtype) ? b_.cast(v, DType::Float32) : v;
}

// Eager writes every op's result to a tensor of its type: a 16-bit elementwise result or reduction computed here
// (in float32) is rounded to its type as it is made, so that every op after it (elementwise, a reduction, a
// widening cast) reads eager's value. (A cast to 16 bits rounds by itself; a scan rounds inside its own order;
// a matmul's or attention's accumulator is not rounded inside eager's fused kernels either.)
bool rounds_like_eager(const Node* n) {
  if (n->dtype != DType::Float16 && n->dtype != DType::BFloat16) return false;
  OpKind kind = op_kind(n->op);
  bool elementwise =
      kind == OpKind::Unary || kind == OpKind::Binary || kind == OpKind::Ternary || kind == OpKind::Reduce;
  return elementwise && n->op != Op::Cast;
}

const TExpr* ValueEmitter::rounded_like_eager(const Node* n, const TExpr* v) {
  return rounds_like_eager(n) ? b_.cast(b_.cast(v, n->dtype), DType::Float32) : v;
}

const TExpr* ValueEmitter::dim_index(int d) {
  if (d < 0) return b_.i(0);
  int r = rep_[d];
  TZ_ASSERT(r >= 0 && index[r], "no index for a kernel dim");
  // index[r] counts over r's whole merged run: d's own index is a division and a modulo away.
  int64_t inner = 1;
  bool outer = false;
  for (int u = 0; u < static_cast<int>(rep_.size()); ++u) {
    if (rep_[u] != r) continue;
    if (u > d) inner *= g_.space[u];
    if (u < d) outer = true;
  }
  const TExpr* idx = index[r];
  if (inner != 1) idx = b_.op(TOp::FloorDiv, {idx, b_.i(inner)});
  if (outer) idx = b_.op(TOp::Mod, {idx, b_.i(g_.space[d])});
  return idx;
}

namespace {

// x ** c for a constant c: repeated products for small integers, sqrt for halves, else exp(c * log(x)).
const TExpr* power(TileBuilder& b, const TExpr* x, double c) {
  if (c == 1.0) return x;
  if (c == 0.5) return b.op(TOp::Sqrt, {x});
  if (c == -0.5) return b.op(TOp::Rsqrt, {x});
  if (c == std::floor(c) && std::fabs(c) <= 8) {
    int n = static_cast<int>(std::fabs(c));
    const TExpr* p = n == 0 ? b.f(1.0) : x;
    for (int i = 1; i < n; ++i) p = b.mul(p, x);
    return c < 0 ? b.op(TOp::Div, {b.f(1.0), p}) : p;
  }
  return b.op(TOp::Exp, {b.mul(b.f(c), b.op(TOp::Log, {x}))});
}

}  // namespace

const TExpr* ValueEmitter::pointwise(const Node* n, std::vector<const TExpr*> a) {
  bool fp = is_floating(n->dtype);
  const TExpr* zero = fp ? b_.f(0.0) : b_.i(0);
  switch (n->op) {
    case Op::Neg: return b_.op(TOp::Neg, {a[0]});
    case Op::Abs: return b_.op(TOp::Abs, {a[0]});
    case Op::Exp: return b_.op(TOp::Exp, {a[0]});
    case Op::Log: return b_.op(TOp::Log, {a[0]});
    case Op::Sqrt: return b_.op(TOp::Sqrt, {a[0]});
    case Op::Rsqrt: return b_.op(TOp::Rsqrt, {a[0]});
    case Op::Sin: return b_.op(TOp::Sin, {a[0]});
    case Op::Cos: return b_.op(TOp::Cos, {a[0]});
    case Op::Sigmoid: return b_.op(TOp::Sigmoid, {a[0]});
    case Op::Erf: return b_.op(TOp::Erf, {a[0]});
    case Op::Relu: return b_.op(fp ? TOp::NanMaximum : TOp::Maximum, {a[0], zero});  // relu(NaN) is NaN
    case Op::Tanh: {
      // Triton 3.6 has no tl.tanh: tanh(x) = sign(x) * (1 - e) / (1 + e), e = exp(-2|x|), stable for all x.
      std::string e = fresh("e");
      out->push_back(TileBuilder::assign(e, b_.op(TOp::Exp, {b_.mul(b_.f(-2.0), b_.op(TOp::Abs, {a[0]}))})));
      const TExpr* ev = b_.var(e);
      const TExpr* mag = b_.op(TOp::Div, {b_.op(TOp::Sub, {b_.f(1.0), ev}), b_.add(b_.f(1.0), ev)});
      return b_.op(TOp::Where, {b_.op(TOp::Lt, {a[0], b_.f(0.0)}), b_.op(TOp::Neg, {mag}), mag});
    }
    case Op::LogicalNot: return b_.op(TOp::Eq, {a[0], b_.i(0)});
    case Op::Copy: return a[0];
    case Op::RoundTf32: return b_.call("_round_tf32", {a[0], b_.var("PRECISION")});  // kernel/lower.cpp adds PRECISION
    case Op::Expm1: return b_.call("_expm1", {a[0], b_.var("ON_CUDA")});  // kernel/lower.cpp adds ON_CUDA
    case Op::Sixth: return b_.call("_sixth", {a[0], b_.var("ON_CUDA")});
    case Op::DivByNumber: {
      float c = static_cast<float>(n->attr.floats[0]);
      return b_.call("_div_by_number", {a[0], b_.f(c), b_.f(1.0f / c), b_.var("ON_CUDA")});
    }
    case Op::Log1p: return b_.call("_log1p", {a[0], b_.var("ON_CUDA")});
    case Op::Log2: return b_.op(TOp::Log2, {a[0]});
    case Op::Exp2: return b_.op(TOp::Exp2, {a[0]});
    case Op::Floor: return b_.op(TOp::Floor, {a[0]});
    case Op::Ceil: return b_.op(TOp::Ceil, {a[0]});
    case Op::Round: return b_.call("_round_half_even", {a[0]});
    case Op::Cast: {
      DType from = n->src[0]->dtype, to = n->dtype;
      if (to == DType::Bool) return b_.op(TOp::Ne, {a[0], fp ? b_.f(0.0) : b_.i(0)});
      if (to == DType::Float16 || to == DType::BFloat16) {
        // Round to the half type, then keep computing in float32.
        return b_.cast(b_.cast(a[0], to), DType::Float32);
      }
      const TExpr* v = a[0];  // (a 16-bit operand computed here is rounded to its type already: rounded_like_eager)
      if (computes_in_f32(from) && computes_in_f32(to)) return v;
      return b_.cast(v, to);
    }
    case Op::Add: return b_.add(a[0], a[1]);
    case Op::Sub: return b_.op(TOp::Sub, {a[0], a[1]});
    case Op::Mul: return b_.mul(a[0], a[1]);
    case Op::Div: return b_.op(TOp::Div, {a[0], a[1]});
    case Op::DivRn: return b_.call("tl.math.div_rn", {a[0], a[1]});
    case Op::Fmod: return fp ? b_.call("_fmod", {a[0], a[1]}) : b_.op(TOp::Mod, {a[0], a[1]});  // ints: C's %
    case Op::TruncDiv: return b_.op(TOp::FloorDiv, {a[0], a[1]});  // Triton's integer // truncates, as C's /
    case Op::Pow: {
      const Node* e = view_root(n->src[1]);
      if (e->op == Op::Const) return power(b_, a[0], e->attr.f);
      return b_.op(TOp::Exp, {b_.mul(a[1], b_.op(TOp::Log, {a[0]}))});
    }
    case Op::Maximum: return b_.op(fp ? TOp::NanMaximum : TOp::Maximum, {a[0], a[1]});
    case Op::Minimum: return b_.op(fp ? TOp::NanMinimum : TOp::Minimum, {a[0], a[1]});
    case Op::Eq: return b_.op(TOp::Eq, {a[0], a[1]});
    case Op::Ne: return b_.op(TOp::Ne, {a[0], a[1]});
    case Op::Lt: return b_.op(TOp::Lt, {a[0], a[1]});
    case Op::Le: return b_.op(TOp::Le, {a[0], a[1]});
    case Op::Gt: return b_.op(TOp::Gt, {a[0], a[1]});
    case Op::Ge: return b_.op(TOp::Ge, {a[0], a[1]});
    case Op::LogicalAnd: return b_.op(TOp::And, {a[0], a[1]});
    case Op::LogicalOr: return b_.op(TOp::Or, {a[0], a[1]});
    case Op::Where: return b_.op(TOp::Where, {a[0], a[1], a[2]});
    default: break;
  }
  internal_error(std::string("no tile lowering for op ") + op_name(n->op), __FILE__, __LINE__);
}

const TExpr* ValueEmitter::ptr_base(const Node* n) { return b_.var(buffers_.pointer(n)); }

void ValueEmitter::store(const Node* n, const std::vector<int>& map, const TExpr* v, int64_t shift,
                         const TExpr* extra_mask) {
  std::vector<int64_t> strides = contiguous_strides(n->shape);
  std::vector<int64_t> per_dim(g_.space.size(), 0);
  for (size_t j = 0; j < map.size(); ++j) {
    if (map[j] >= 0 && n->shape[j] != 1) per_dim[map[j]] += strides[j];
  }
  const TExpr* ptr = ptr_base(n);
  const TExpr* off = offset(per_dim);
  if (!off && store_anchor) {
    // A 0-d result of a kernel whose values are [1, 1] tiles: the pointer takes the tile's shape.
    out->push_back(TileBuilder::comment("0-d result: the [1, 1] tile holds its one element"));
    off = b_.mul(b_.i(0), store_anchor);
  }
  const TExpr* mask = mask_for(per_dim);
  for (size_t a = 0; a < axis_anchor.size(); ++a) {
    if (!axis_anchor[a]) continue;
    bool spanned = false;
    for (size_t d = 0; d < per_dim.size(); ++d) {
      spanned = spanned || (rep_[d] == static_cast<int>(d) && per_dim[d] != 0 && axis_of[d] == static_cast<int>(a));
    }
    if (spanned) continue;
    // x + anchor * 0: the pointer takes the value's tile shape; the axis's mask keeps one element of it
    const TExpr* zero = b_.mul(axis_anchor[a], b_.i(0));
    off = off ? b_.add(off, zero) : zero;
    if (a < axis_mask.size() && axis_mask[a]) mask = mask ? b_.band(mask, axis_mask[a]) : axis_mask[a];
  }
  if (shift != 0) off = off ? b_.add(off, b_.i(shift)) : b_.i(shift);
  if (extra_mask) mask = mask ? b_.band(mask, extra_mask) : extra_mask;
  if (off) ptr = b_.add(ptr, off);
  if (is_floating(n->dtype)) v = b_.op(TOp::Cast, {v, b_.op(TOp::ElementTy, {ptr_base(n)})});
  else v = b_.cast(v, n->dtype);
  out->push_back(TileBuilder::store(ptr, v, mask));
}

int64_t ValueEmitter::run_size(int rep) const {
  int64_t s = 1;
  for (int u = 0; u <= rep; ++u) {
    if (rep_[u] == rep) s *= g_.space[u];
  }
  return s;
}

void ValueEmitter::split_index(const TExpr* flat, const std::vector<int>& dims, int axis, const std::string& stem) {
  int64_t inner = 1;
  for (int k = static_cast<int>(dims.size()) - 1; k >= 0; --k) {
    int d = dims[k];
    const TExpr* idx = flat;
    if (inner != 1) idx = b_.op(TOp::FloorDiv, {idx, b_.i(inner)});
    if (k != 0) idx = b_.op(TOp::Mod, {idx, b_.i(run_size(d))});
    if (idx != flat) {
      std::string name = fresh(stem + std::to_string(d));
      out->push_back(TileBuilder::assign(name, idx));
      idx = b_.var(name);
    }
    index[d] = idx;
    axis_of[d] = axis;
    inner *= run_size(d);
  }
}

}  // namespace tz
