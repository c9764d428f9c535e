// fuse: greedy partition of the graph into kernels, in topological order.
//  - a matmul, a convolution or an attention starts a kernel; its operands must be in memory;
//  - a pooling (window) op starts a kernel over its output; its input is read from memory, window by window;
//    the indices of a max pool (return_indices) join the kernel of its values;
//  - a reduction joins the kernel of its input when that kernel iterates over the same space (a pointwise
//    kernel over the input shape becomes a reduction kernel), else starts one;
//  - a scan (cumsum, cumprod) joins the kernel of its input when that kernel iterates over the input's shape
//    (a scan kernel along the same axis and direction, or a pointwise kernel, which becomes a scan kernel);
//  - a cat of a scan kernel's results and constants is stored by that kernel, each piece at its offset in the
//    cat's buffer (a store epilogue);
//  - a gather joins the pointwise kernel that computes its index when it iterates over the index's shape (else
//    starts a pointwise kernel over it); its source x is read from memory at the positions the index names, so
//    x is never computed in that kernel; its pointwise consumers and reductions join it like any pointwise value's;
//  - a pointwise op joins a kernel of one of its inputs when its shape fits that kernel's space (the space
//    itself, or the reduced shape of a reduction kernel) and every in-kernel input is read through a dim map
//    the kernel can compute, preferring inputs that cannot be recomputed; else it starts a pointwise kernel;
//  - when it joins a pointwise kernel and also reads, as they are, values of other pointwise kernels over the
//    same space that cannot be recomputed, those kernels merge into its kernel (horizontal fusion: nothing is
//    stored between them) unless one reads from the other, directly or through others (a cycle);
//  - a pointwise chain over inputs only that ends in reductions joins a reduction kernel over the same
//    space and axes that reads one of the same inputs (horizontal fusion: one read for sibling sums); so
//    does a reduction of a value in memory (an input, or another kernel's output) next to one of the same value;
//  - a small pointwise chain over inputs and parameters only (gathers from them included) is recomputed by the
//    kernels that read it rather than written to memory; a kernel left with no outputs is dropped;
//  - a buffer update (graph.updates) is written by the kernel of its value, which runs after every other
//    kernel that reads the buffer (they all read its value before the update).
// Kernels then run in dependency order. Views of values in memory are free: consumers read them by strides.
#include "passes/fuse.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "graph/view.h"

namespace tz {

namespace {

std::vector<int> identity_map(size_t rank) {
  std::vector<int> m(rank);
  for (size_t i = 0; i < rank; ++i) m[i] = static_cast<int>(i);
  return m;
}

// The dims of `shape` as seen in a kernel over `g`: identity on the space, kept axes for reduced shapes.
bool natural_map(const Group& g, const Shape& shape, std::vector<int>& map) {
  if (shape == g.space) {  // unit dims read as broadcast (-1), as broadcast_map and group_map give them
    map = identity_map(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) map[d] = -1;
    }
    return true;
  }
  if (g.kind != GroupKind::Reduction) return false;
  auto reduced = [&](size_t d) { return std::find(g.axes.begin(), g.axes.end(), (int64_t)d) != g.axes.end(); };
  map.clear();
  if (shape.size() == g.space.size()) {  // keepdim form
    for (size_t d = 0; d < shape.size(); ++d) {
      if (reduced(d) ? shape[d] != 1 : shape[d] != g.space[d]) return false;
      map.push_back(reduced(d) || shape[d] == 1 ? -1 : static_cast<int>(d));
    }
    return true;
  }
  size_t j = 0;
  for (size_t d = 0; d < g.space.size(); ++d) {
    if (reduced(d)) continue;
    if (j >= shape.size() || shape[j] != g.space[d]) return false;
    map.push_back(shape[j] == 1 ? -1 : static_cast<int>(d));
    ++j;
  }
  return j == shape.size();
}

class Fuser {
 public:
  explicit Fuser(Schedule& s) : s_(s), g_(*s.graph) {}

  void run() {
    const auto& nodes = g_.nodes();
    s_.group_of.assign(nodes.size(), -1);
    s_.materialized.assign(nodes.size(), 0);
    std::vector<char> live = live_nodes(g_);
    users_.assign(nodes.size(), {});
    for (const auto& up : nodes) {
      if (!live[up->id]) continue;
      for (auto* src : up->src) users_[src->id].push_back(up.get());
    }
    for (const auto& up : nodes) {
      const Node* n = up.get();
      if (!live[n->id]) continue;
      OpKind kind = op_kind(n->op);
      if (kind == OpKind::Leaf || kind == OpKind::View) continue;
      TZ_ASSERT(kind != OpKind::Composite, "composite op reached fusion (decompose did not run)");
      if (kind == OpKind::Matmul) place_template(n, GroupKind::Matmul);
      else if (kind == OpKind::Conv) place_template(n, GroupKind::Conv);
      else if (kind == OpKind::Window) place_window(n);
      else if (kind == OpKind::Gather) place_gather(n);
      else if (kind == OpKind::Attention) place_template(n, GroupKind::Attention);
      else if (kind == OpKind::Reduce) place_reduce(n);
      else if (kind == OpKind::Scan) place_scan(n);
      else place_pointwise(n);
    }
    for (auto* o : g_.outputs) mark_materialized(view_root(o));
    for (const auto& u : g_.updates) mark_materialized(u.value);
    merge_two_axes();
    drop_empty_groups();
    order_updates();
    order_groups();
  }

 private:
  // Does group `gid` read the buffer `path` (directly or in a recomputed chain)?
  bool reads_param(const Group& grp, const std::string& path) const {
    auto reads = [&](const Node* n) {
      for (auto* src : n->src) {
        const Node* root = view_root(src);
        if (root->op == Op::Param && root->attr.str == path) return true;
      }
      return false;
    };
    for (auto* n : grp.nodes) {
      if (reads(n)) return true;
    }
    for (auto* n : grp.inlined) {
      if (reads(n)) return true;
    }
    return false;
  }

  // The kernel writing an updated buffer runs after the other kernels that read the buffer.
  void order_updates() {
    for (const auto& u : g_.updates) {
      int writer = group_of(u.value);
      TZ_ASSERT(writer >= 0, "a buffer update outside any kernel");
      for (const auto& grp : s_.groups) {
        if (grp.id != writer && reads_param(grp, u.path)) deps_[writer].insert(grp.id);
      }
    }
  }

  int group_of(const Node* n) const { return s_.group_of[n->id]; }

  void mark_materialized(const Node* root) {
    if (group_of(root) >= 0 && !s_.materialized[root->id]) {
      s_.materialized[root->id] = 1;
      s_.groups[group_of(root)].outputs.push_back(root);
    }
  }

  int new_group(GroupKind kind, const Shape& space, std::vector<int64_t> axes = {}) {
    Group grp;
    grp.id = static_cast<int>(s_.groups.size());
    grp.kind = kind;
    grp.space = space;
    grp.axes = std::move(axes);
    s_.groups.push_back(grp);
    deps_.emplace_back();
    return grp.id;
  }

  void add(int gid, const Node* n) {
    s_.group_of[n->id] = gid;
    s_.groups[gid].nodes.push_back(n);
  }

  // Reads `src` (a source of a node placed in `gid`) from outside the kernel: its root is recomputed when
  // it is a cheap chain over leaves, else it goes to memory and `gid` depends on the root's kernel.
  void read_from_memory(int gid, const Node* src, bool may_recompute = true) {
    const Node* root = view_root(src);
    if (group_of(root) < 0 || group_of(root) == gid) return;
    if (may_recompute && views_mappable(src) && inlinable(root)) {
      add_inlined(gid, root);
      return;
    }
    mark_materialized(root);
    deps_[gid].insert(group_of(root));
  }

  // Every view between `n` and its root keeps a per-dim correspondence (so the value can be recomputed).
  static bool views_mappable(const Node* n) {
    for (; op_kind(n->op) == OpKind::View; n = n->src[0]) {
      std::vector<int> map(n->shape.size(), -1), src_map;
      if (!view_source_map(n, map, src_map)) return false;
    }
    return true;
  }

  // A pointwise value computed from leaves through at most kMaxInlined pointwise nodes.
  bool inlinable(const Node* n) {
    auto it = inlinable_.find(n);
    if (it != inlinable_.end()) return it->second;
    int count = 0;
    bool ok = inline_walk(n, count);
    inlinable_[n] = ok;
    return ok;
  }

  bool inline_walk(const Node* n, int& count) {
    if (op_kind(n->op) == OpKind::Leaf) return true;
    // A gather from an input or parameter at a cheap index (a positional embedding at torch.arange) is recomputed
    // too: it reads x by strides wherever it runs, like a pointwise op reads its leaves.
    bool leaf_gather = n->op == Op::Gather && op_kind(view_root(n->src[0])->op) == OpKind::Leaf;
    if ((!is_pointwise(n->op) && !leaf_gather) || ++count > kMaxInlined) return false;
    if (leaf_gather) {
      const Node* index = n->src[1];
      return (op_kind(view_root(index)->op) == OpKind::Leaf || views_mappable(index)) &&
             inline_walk(view_root(index), count);
    }
    for (auto* src : n->src) {
      // A leaf is read by strides through any view (split_reduce reshapes inputs: cast(reshape(x)));
      // a computed value is recomputed dim by dim, so its views must keep a per-dim correspondence.
      bool leaf = op_kind(view_root(src)->op) == OpKind::Leaf;
      if ((!leaf && !views_mappable(src)) || !inline_walk(view_root(src), count)) return false;
    }
    return true;
  }

  void add_inlined(int gid, const Node* n) {
    if (op_kind(n->op) == OpKind::Leaf) return;
    auto& list = s_.groups[gid].inlined;
    if (std::find(list.begin(), list.end(), n) != list.end()) return;
    for (auto* src : n->src) add_inlined(gid, view_root(src));
    list.push_back(n);  // sources first: a topological order
  }

  bool depends_on(int from, int target) const {  // does `from` (transitively) read from `target`?
    std::vector<char> seen(s_.groups.size(), 0);
    std::vector<int> stack = {from};
    while (!stack.empty()) {
      int x = stack.back();
      stack.pop_back();
      if (x == target) return true;
      if (seen[x]) continue;
      seen[x] = 1;
      for (int d : deps_[x]) stack.push_back(d);
    }
    return false;
  }

  // Can `src`, read with `map` by a node placed in `gid`, be computed inside that kernel? Walks views
  // down to the root; in reduction and matmul kernels an in-kernel value can only be read with its own map.
  bool readable_in(int gid, const Node* src, std::vector<int> map) const {
    const Group& grp = s_.groups[gid];
    const Node* cur = src;
    while (op_kind(cur->op) == OpKind::View) {
      if (group_of(view_root(cur)) != gid) return true;  // read from memory by strides
      std::vector<int> next;
      if (!view_source_map(cur, map, next)) return false;
      map = std::move(next);
      cur = cur->src[0];
    }
    if (group_of(cur) != gid) return true;
    if (grp.writes_cat(cur)) return false;  // stored piece by piece, never a value in the kernel
    if (grp.kind == GroupKind::Pointwise) return true;  // recomputed per element under any map
    std::vector<int> own;
    return natural_map(grp, cur->shape, own) && own == map;
  }

  // Are all in-kernel reads of `gid`'s nodes still computable (after a change of kind)?
  bool all_readable(int gid) const {
    for (const Node* n : s_.groups[gid].nodes) {
      std::vector<int> map;
      if (!natural_map(s_.groups[gid], n->shape, map)) return false;
      if (op_kind(n->op) == OpKind::Reduce) continue;
      for (auto* src : n->src) {
        if (!readable_in(gid, src, broadcast_map(src->shape, n->shape, map))) return false;
      }
    }
    return true;
  }

  // Would placing pointwise node `n` into `gid` be valid?
  bool fits(int gid, const Node* n) const {
    const Group& grp = s_.groups[gid];
    std::vector<int> map;
    if (!natural_map(grp, n->shape, map)) return false;
    for (auto* src : n->src) {
      if (!readable_in(gid, src, broadcast_map(src->shape, n->shape, map))) return false;
      int other = group_of(view_root(src));
      bool recomputed = views_mappable(src) && const_cast<Fuser*>(this)->inlinable(view_root(src));
      if (other >= 0 && other != gid && !recomputed && depends_on(other, gid)) return false;  // a cycle
    }
    return true;
  }

  // A cat along the scanned dim of a scan's result, read through slices along that dim, and constants joins the
  // scan's kernel, which stores each piece straight into the cat's buffer: the scan's value at index r at
  // r - start + lo for r in [start, start + hi - lo), a constant at lo + r for r < hi - lo (view.h CatPiece):
  //   cat([zeros(.., 1), c[.., :-1]], d) => the scan kernel stores c[r] at r + 1 (r < R - 1) and 0 at r = 0
  // An exclusive cumsum written so ran as the scan writing c and a copy kernel reading it back shifted: three
  // passes over memory instead of two (scan_exclusive_cat, fp32 [32768, 4097]: 0.31 of the floor on the H200).
  bool place_cat_store(const Node* n) {
    std::vector<CatPiece> pieces;
    if (!cat_pieces(n, pieces)) return false;
    int gid = -1;
    for (const CatPiece& p : pieces) {
      if (p.root->op == Op::Const) continue;
      if (gid >= 0 || op_kind(p.root->op) != OpKind::Scan || group_of(p.root) < 0) return false;
      gid = group_of(p.root);
    }
    if (gid < 0) return false;
    Group& grp = s_.groups[gid];
    if (grp.kind != GroupKind::Scan || pieces[0].dim != grp.axes[0]) return false;
    for (const CatPiece& p : pieces) {
      if (p.hi - p.lo > grp.space[static_cast<size_t>(p.dim)]) return false;  // (stored at kernel indices)
    }
    add(gid, n);
    grp.cats.push_back(n);
    return true;
  }

  void place_pointwise(const Node* n) {
    if (place_cat_store(n)) return;
    // Kernels of sources that must be read from memory come first: a source that is a cheap chain over
    // leaves (a mask such as class_index == target) is recomputed wherever n goes, so joining its kernel
    // would only force the other sources to memory.
    std::vector<int> candidates, recomputable;
    for (auto* src : n->src) {
      int gid = group_of(view_root(src));
      if (gid < 0) continue;
      bool cheap = views_mappable(src) && inlinable(view_root(src));
      auto& list = cheap ? recomputable : candidates;
      if (std::find(list.begin(), list.end(), gid) == list.end()) list.push_back(gid);
    }
    const std::vector<int> in_memory = candidates;  // kernels whose values n would read from memory
    if (candidates.empty()) {
      int sibling = sibling_reduction(n);
      if (sibling >= 0) candidates.push_back(sibling);
    }
    for (int gid : recomputable) {
      if (std::find(candidates.begin(), candidates.end(), gid) == candidates.end()) candidates.push_back(gid);
    }
    merge_sibling_rows(n, candidates);
    int chosen = -1;
    for (int gid : candidates) {
      if (gid >= 0 && s_.groups[gid].nodes.empty()) continue;  // (merged into another)
      if (fits(gid, n)) {
        chosen = gid;
        break;
      }
    }
    if (chosen < 0) {
      chosen = new_group(GroupKind::Pointwise, n->shape);  // (n fits none of them: nothing to merge into)
    } else {
      for (int gid : in_memory) {
        if (gid != chosen) merge_pointwise(chosen, gid, n);
      }
    }
    add(chosen, n);
    for (auto* src : n->src) read_from_memory(chosen, src);
  }

  // Two reduction kernels over the same space and axes, neither reading the other, whose full-size values `n`
  // combines become one kernel before `n` joins it: KL divergence of log_softmax(a) and log_softmax(b) over rows
  // ran as one kernel writing log_softmax(a) whole and a second reading it back beside b (2.0x the floor's bytes,
  // 0.47 of the floor on the H200); merged, each input is read once and only the row sums are written.
  void merge_sibling_rows(const Node* n, const std::vector<int>& candidates) {
    for (size_t i = 0; i < candidates.size(); ++i) {
      for (size_t j = i + 1; j < candidates.size(); ++j) {
        int a = std::min(candidates[i], candidates[j]), b = std::max(candidates[i], candidates[j]);
        Group& ga = s_.groups[a];
        Group& gb = s_.groups[b];
        if (ga.nodes.empty() || gb.nodes.empty()) continue;
        if (ga.kind != GroupKind::Reduction || gb.kind != GroupKind::Reduction || ga.space != gb.space ||
            ga.axes != gb.axes || n->shape != ga.space || depends_on(a, b) || depends_on(b, a) ||
            writes_update(a) || writes_update(b)) {
          continue;
        }
        merge_groups(a, b);
      }
    }
  }

  // Does kernel `gid` write a buffer update? It runs after the kernels reading the buffer (order_updates), so it
  // merges with none.
  bool writes_update(int gid) const {
    return std::any_of(g_.updates.begin(), g_.updates.end(), [&](const auto& u) { return group_of(u.value) == gid; });
  }

  // Moves group b's nodes, outputs and recomputed chains into group a (node ids are a topological order; a chain
  // b recomputed that a computes is a's own value), and every dependency on b to a. b is left empty, then dropped.
  void merge_groups(int a, int b) {
    Group& ga = s_.groups[a];
    Group& gb = s_.groups[b];
    auto by_id = [](const Node* x, const Node* y) { return x->id < y->id; };
    std::vector<const Node*> nodes;
    std::merge(ga.nodes.begin(), ga.nodes.end(), gb.nodes.begin(), gb.nodes.end(), std::back_inserter(nodes), by_id);
    ga.nodes = std::move(nodes);
    for (const Node* m : ga.nodes) s_.group_of[m->id] = a;
    for (const Node* m : gb.inlined) {
      if (std::find(ga.inlined.begin(), ga.inlined.end(), m) == ga.inlined.end()) ga.inlined.push_back(m);
    }
    ga.inlined.erase(std::remove_if(ga.inlined.begin(), ga.inlined.end(), [&](const Node* m) { return group_of(m) == a; }),
                     ga.inlined.end());
    std::sort(ga.inlined.begin(), ga.inlined.end(), by_id);
    ga.outputs.insert(ga.outputs.end(), gb.outputs.begin(), gb.outputs.end());
    gb.nodes.clear();
    gb.inlined.clear();
    gb.outputs.clear();
    deps_[a].insert(deps_[b].begin(), deps_[b].end());
    deps_[b].clear();
    for (auto& deps : deps_) {
      if (deps.erase(b)) deps.insert(a);
    }
    deps_[a].erase(a);
  }

  // Horizontal fusion of pointwise kernels that meet: `n`, placed in pointwise kernel `into`, also reads a value
  // that another pointwise kernel over the same space computes and that cannot be recomputed (more than
  // kMaxInlined ops). Rather than store it and read it back, that kernel's values are computed in `into` too,
  // when neither kernel reads from the other (directly or through others: no cycle) and every in-kernel read
  // of the union, n's included, keeps a per-dim map. `g + h + selu(x) * selu(y)` over two fp16 [128, 257, 16383]
  // inputs ran as two kernels, the first storing selu(x) * selu(y) for the second: 2.33x the bytes of the
  // floor (0.35 of it on the H200); merged, x and y are read once and one result is written.
  void merge_pointwise(int into, int from, const Node* n) {
    Group& dst = s_.groups[into];
    Group& src = s_.groups[from];
    if (dst.kind != GroupKind::Pointwise || src.kind != GroupKind::Pointwise || dst.space != src.space ||
        src.nodes.empty() || depends_on(into, from) || depends_on(from, into)) {
      return;
    }
    if (writes_update(into) || writes_update(from)) return;
    for (const Node* x : n->src) {
      const int other = group_of(view_root(x));
      // n reads the other kernel's values as they are (no view: none of them computed twice under another map)
      if (other == from && x != view_root(x)) return;
      // n's other reads from memory make `into` depend on their kernels: none of those may read from `from`
      const bool recomputed = views_mappable(x) && inlinable(view_root(x));
      if (other >= 0 && other != from && other != into && !recomputed && depends_on(other, from)) return;
    }
    for (const Node* m : src.nodes) s_.group_of[m->id] = into;
    std::vector<const Node*> both = dst.nodes;
    both.insert(both.end(), src.nodes.begin(), src.nodes.end());
    both.push_back(n);
    if (!readable_together(into, both)) {
      for (const Node* m : src.nodes) s_.group_of[m->id] = from;
      return;
    }
    for (const Node* m : src.nodes) s_.group_of[m->id] = from;
    merge_groups(into, from);
  }

  // Can every node of `nodes`, all in kernel `gid`, read its sources with a per-dim map there?
  bool readable_together(int gid, const std::vector<const Node*>& nodes) const {
    for (const Node* m : nodes) {
      std::vector<int> map;
      if (!natural_map(s_.groups[gid], m->shape, map)) return false;
      for (auto* src : m->src) {
        if (!readable_in(gid, src, broadcast_map(src->shape, m->shape, map))) return false;
      }
    }
    return true;
  }

  // Inputs and parameters that `n` reads, directly or through recomputable chains.
  void leaves_of(const Node* n, std::set<const Node*>& out) {
    for (auto* src : n->src) {
      const Node* root = view_root(src);
      if (root->op == Op::Input || root->op == Op::Param) out.insert(root);
      else if (is_pointwise(root->op) && inlinable(root)) leaves_of(root, out);
    }
  }

  // Horizontal fusion: a pointwise value over inputs only (a * a next to a * b in cosine similarity) whose
  // same-shaped pointwise uses all end in reductions over the axes of an existing reduction kernel that
  // reads one of the same inputs joins that kernel, so the inputs are read once for all the reductions.
  int sibling_reduction(const Node* n) {
    std::vector<const Node*> stack = {n}, reductions;
    std::set<const Node*> seen;
    while (!stack.empty()) {
      const Node* x = stack.back();
      stack.pop_back();
      if (!seen.insert(x).second) continue;
      for (const Node* u : users_[x->id]) {
        if (op_kind(u->op) == OpKind::Reduce && u->src[0] == x) reductions.push_back(u);
        else if (is_pointwise(u->op) && u->shape == n->shape) stack.push_back(u);
        else return -1;
      }
    }
    if (reductions.empty()) return -1;
    std::set<const Node*> mine;
    leaves_of(n, mine);
    for (const auto& grp : s_.groups) {
      if (grp.kind != GroupKind::Reduction || grp.space != n->shape) continue;
      bool same_axes = true;
      for (const Node* r : reductions) same_axes = same_axes && r->attr.ints == grp.axes;
      if (!same_axes) continue;
      std::set<const Node*> theirs;
      for (const Node* m : grp.nodes) leaves_of(m, theirs);
      for (const Node* m : grp.inlined) leaves_of(m, theirs);
      bool shares = std::any_of(mine.begin(), mine.end(), [&](const Node* l) { return theirs.count(l) > 0; });
      if (shares && fits(grp.id, n)) return grp.id;
    }
    return -1;
  }

  void place_reduce(const Node* n) {
    const Node* x = n->src[0];
    int gid = group_of(x);  // views on the input of a reduction are read from memory
    bool joined = false;
    if (gid >= 0 && x == view_root(x)) {
      Group& grp = s_.groups[gid];
      if (grp.space == x->shape && grp.kind == GroupKind::Reduction && grp.axes == n->attr.ints) {
        joined = true;
      } else if (grp.space == x->shape && grp.kind == GroupKind::Pointwise) {
        grp.kind = GroupKind::Reduction;  // tentatively; every value in it must still be readable
        grp.axes = n->attr.ints;
        joined = all_readable(gid);
        if (!joined) {
          grp.kind = GroupKind::Pointwise;
          grp.axes.clear();
        }
      }
    }
    if (!joined) {
      // Sibling reductions of one input in memory (x.max() and x.min(); also a value another kernel
      // writes, as the partials of a split argmax) share a kernel and one read of it; so does a reduction of x
      // next to one of a pointwise value that kernel computes from x ((x * x).sum() and x.amax(): two reads of
      // 1 GB, 0.45 of the bandwidth floor on the H200).
      auto reads_x = [&](const Node* other) {
        if (op_kind(other->op) == OpKind::Reduce) return other->src[0] == x;
        return is_pointwise(other->op) && std::find(other->src.begin(), other->src.end(), x) != other->src.end();
      };
      for (auto& grp : s_.groups) {
        if (grp.kind != GroupKind::Reduction || grp.space != x->shape || grp.axes != n->attr.ints) continue;
        for (auto* other : grp.nodes) {
          if (reads_x(other)) {
            gid = grp.id;
            joined = true;
          }
        }
        if (joined) break;
      }
    }
    if (!joined) gid = new_group(GroupKind::Reduction, x->shape, n->attr.ints);
    add(gid, n);
    read_from_memory(gid, x);
  }

  // A scan joins the kernel of its input when that kernel iterates over the input's shape: a scan kernel
  // along the same axis in the same direction, or a pointwise kernel (which becomes a scan kernel). Its
  // pointwise consumers of the same shape then join it like any pointwise op.
  void place_scan(const Node* n) {
    const Node* x = n->src[0];
    int gid = group_of(x);
    bool joined = false;
    std::vector<int64_t> axes = {n->attr.ints[0]};
    if (gid >= 0 && x == view_root(x) && !s_.groups[gid].writes_cat(x)) {
      Group& grp = s_.groups[gid];
      if (grp.space == x->shape && grp.kind == GroupKind::Scan && grp.axes == axes) {
        joined = scan_direction(gid) == n->attr.ints[1];
      } else if (grp.space == x->shape && grp.kind == GroupKind::Pointwise && !has_gather(grp)) {
        grp.kind = GroupKind::Scan;  // tentatively, as for reductions
        grp.axes = axes;
        joined = all_readable(gid);
        if (!joined) {
          grp.kind = GroupKind::Pointwise;
          grp.axes.clear();
        }
      }
    }
    if (!joined) gid = new_group(GroupKind::Scan, x->shape, axes);
    add(gid, n);
    read_from_memory(gid, x);
  }

  // A scan kernel walks its rows in ATen's tiles, chunk by chunk (lower_scan.cpp): a gather's kernel stays
  // pointwise and the scan reads the gathered values from memory (not measured: no problem needs it yet).
  static bool has_gather(const Group& grp) {
    return std::any_of(grp.nodes.begin(), grp.nodes.end(), [](const Node* m) { return m->op == Op::Gather; });
  }

  // The direction of the scans already in a scan kernel (they all share one).
  int64_t scan_direction(int gid) const {
    for (const Node* m : s_.groups[gid].nodes) {
      if (op_kind(m->op) == OpKind::Scan) return m->attr.ints[1];
    }
    return 0;
  }

  // A matmul, conv or attention kernel: the op first, then the pointwise epilogue that joins it.
  void place_template(const Node* n, GroupKind kind) {
    int gid = new_group(kind, n->shape);
    add(gid, n);
    for (auto* src : n->src) read_from_memory(gid, src, /*may_recompute=*/false);  // tl.dot reads memory
  }

  // Pointwise consumers of the pooled values join this kernel (they have its shape); its input is loaded at
  // window offsets, so it is never computed in the kernel. The argmax of a pool (return_indices, a second node of
  // the same op) joins its values' kernel, which computes both from one read of the input.
  void place_window(const Node* n) {
    int gid = -1;
    if (n->attr.str == "indices") {
      for (const Group& grp : s_.groups) {
        if (grp.kind != GroupKind::Window) continue;  // (a pointwise kernel merged into another has no nodes)
        const Node* m = grp.nodes.front();
        Attr values_attr = n->attr;
        values_attr.str = m->attr.str;
        if (m->op == n->op && m->src == n->src && m->shape == n->shape &&
            m->attr.str != "indices" && m->attr == values_attr) {
          gid = grp.id;
        }
      }
    }
    if (gid < 0) gid = new_group(GroupKind::Window, n->shape);
    add(gid, n);
    read_from_memory(gid, n->src[0], /*may_recompute=*/false);
  }

  // Two reduction kernels over one space and disjoint axes that both read one full-size tensor in memory become one
  // kernel (Group::axes2) that reads it once (kernel/lower_two_axes.cpp):
  //   x.sum(0), x.mean(1) => one kernel over x's space, axes {0} and {1}
  //   amax(log(x + 3.5), 1), amin(log(x + 3.5), 0) => one kernel computing log(x + 3.5) once
  // Separately each read the whole input: red_sum_dim0_mean_dim1 (fp32 [127, 2047, 2048]) moved 2.0x the bytes of
  // its floor and ran at 0.48 of it on the H200, slower than eager. Only float sums, products, maxima and minima of
  // full-size values, with consumers of each set's reduced values or full-size values that read no reduction, and
  // the dims kept by both sets forming one run (a [K, A, B] space up to order and unit dims).
  void merge_two_axes() {
    for (size_t i = 0; i < s_.groups.size(); ++i) {
      for (size_t j = i + 1; j < s_.groups.size(); ++j) {
        if (two_axes_pair(s_.groups[i], s_.groups[j])) {
          s_.groups[i].axes2 = s_.groups[j].axes;
          merge_groups(static_cast<int>(i), static_cast<int>(j));
        }
      }
    }
  }

  bool two_axes_members(const Group& grp) const {
    if (grp.kind != GroupKind::Reduction || !grp.axes2.empty() || grp.axes.empty() || !grp.cats.empty()) return false;
    // The group's values computed from one of its reductions (nodes are in graph order). Told apart by this, not
    // by their size: a reduction over unit dims keeps the space's size (x.var(1) of an [N, 1] x).
    std::set<const Node*> reduced;
    for (const Node* n : grp.nodes) {
      bool reads_reduction = false;
      for (const Node* src : n->src) reads_reduction = reads_reduction || reduced.count(view_root(src)) > 0;
      if (op_kind(n->op) == OpKind::Reduce) {
        bool kind = n->op == Op::Sum || n->op == Op::Prod || n->op == Op::Max || n->op == Op::Min;
        if (!kind || !is_floating(n->src[0]->dtype) || n->src[0]->shape != grp.space) return false;
        if (reads_reduction) return false;  // (a reduction of a reduction's consumer)
        reduced.insert(n);
        continue;
      }
      if (!is_pointwise(n->op)) return false;
      if (!reads_reduction) continue;
      if (n->shape == grp.space) return false;  // (a full-size value reading a reduction)
      reduced.insert(n);
    }
    return true;
  }

  // Full-size tensors in memory that a group reads (directly or through the chains it recomputes).
  std::set<const Node*> full_reads(const Group& grp) const {
    std::set<const Node*> out, computed(grp.inlined.begin(), grp.inlined.end());
    computed.insert(grp.nodes.begin(), grp.nodes.end());
    const int64_t full = numel(grp.space);
    auto scan = [&](const Node* n) {
      for (const Node* src : n->src) {
        const Node* root = view_root(src);
        if (!computed.count(root) && root->op != Op::Const && root->op != Op::Iota && numel(root->shape) == full) {
          out.insert(root);
        }
      }
    };
    for (const Node* n : grp.nodes) scan(n);
    for (const Node* n : grp.inlined) scan(n);
    return out;
  }

  // Every full-size tensor the group reads walks the space's last dim contiguously. Then the merged kernel's lanes
  // run along that dim, and each reduced output is stored along its own last dim (or one value per row); a
  // transposed read (y = x.transpose(1, 2), y.mean(1) beside y.mean(0)) would store one of them across its rows,
  // where the column kernel's transposed tile stores both coalesced.
  bool reads_along_last(const Group& grp) const {
    int last = static_cast<int>(grp.space.size()) - 1;
    while (last >= 0 && grp.space[static_cast<size_t>(last)] == 1) --last;
    std::set<const Node*> computed(grp.inlined.begin(), grp.inlined.end());
    computed.insert(grp.nodes.begin(), grp.nodes.end());
    auto ok = [&](const Node* n) {
      for (const Node* src : n->src) {
        const Node* root = view_root(src);
        if (computed.count(root) || root->op == Op::Const || root->op == Op::Iota || src->shape != grp.space) continue;
        std::vector<int64_t> st;
        if (last < 0 || !view_strides(src, st) || st[static_cast<size_t>(last)] != 1) return false;
      }
      return true;
    };
    return std::all_of(grp.nodes.begin(), grp.nodes.end(), ok) && std::all_of(grp.inlined.begin(), grp.inlined.end(), ok);
  }

  bool two_axes_pair(const Group& a, const Group& c) const {
    if (a.outputs.empty() || c.outputs.empty() || a.space != c.space) return false;
    if (!two_axes_members(a) || !two_axes_members(c)) return false;
    for (int64_t d : a.axes) {
      if (std::find(c.axes.begin(), c.axes.end(), d) != c.axes.end()) return false;
    }
    if (depends_on(a.id, c.id) || depends_on(c.id, a.id)) return false;
    // The dims kept by both sets form one run (unit dims aside).
    int runs = 0, last = -1;
    for (size_t d = 0; d < a.space.size(); ++d) {
      if (a.space[d] == 1) continue;
      auto has = [&](const std::vector<int64_t>& v) { return std::find(v.begin(), v.end(), (int64_t)d) != v.end(); };
      int cls = has(a.axes) ? 1 : has(c.axes) ? 2 : 0;
      if (cls == 0 && last != 0) ++runs;
      last = cls;
    }
    if (runs > 1) return false;
    if (!reads_along_last(a) || !reads_along_last(c)) return false;
    std::set<const Node*> ra = full_reads(a), rc = full_reads(c);
    return std::any_of(ra.begin(), ra.end(), [&](const Node* n) { return rc.count(n) > 0; });
  }

  // A gather computes its index in the index's kernel when that is a pointwise kernel over the index's shape that
  // neither computes x (read from memory at computed positions) nor reads, through other kernels, a value this one
  // computes (a cycle); else it starts a pointwise kernel and reads the index too.
  //   y = x * 2; g = gather(y, 1, idx + 1); g.exp()  =>  kernel A: y;  kernel B: idx + 1, gather (reads y), exp
  void place_gather(const Node* n) {
    const Node* x = n->src[0];
    const Node* index = n->src[1];
    int gid = group_of(view_root(index));
    int xg = group_of(view_root(x));
    bool joins = gid >= 0 && index == view_root(index) && s_.groups[gid].kind == GroupKind::Pointwise &&
                 s_.groups[gid].space == n->shape && xg != gid && !(xg >= 0 && depends_on(xg, gid));
    if (!joins) gid = new_group(GroupKind::Pointwise, n->shape);
    add(gid, n);
    read_from_memory(gid, x, /*may_recompute=*/false);
    read_from_memory(gid, index);
  }

  // Kernels whose values were all recomputed elsewhere write nothing: they are dropped.
  void drop_empty_groups() {
    std::vector<int> renumber(s_.groups.size(), -1);
    std::vector<Group> kept;
    std::vector<std::set<int>> kept_deps;
    for (auto& grp : s_.groups) {
      if (grp.outputs.empty()) continue;
      renumber[grp.id] = static_cast<int>(kept.size());
      kept.push_back(grp);
    }
    for (auto& grp : kept) {
      std::set<int> deps;
      for (int d : deps_[grp.id]) {
        TZ_ASSERT(renumber[d] >= 0, "a kernel depends on a dropped kernel");
        deps.insert(renumber[d]);
      }
      kept_deps.push_back(deps);
      grp.id = renumber[grp.id];
    }
    for (auto& gid : s_.group_of) {
      if (gid >= 0) gid = renumber[gid];
    }
    s_.groups = std::move(kept);
    deps_ = std::move(kept_deps);
  }

  // Kernels run in an order where each runs after the kernels it reads from.
  void order_groups() {
    std::vector<int> order;
    std::vector<char> state(s_.groups.size(), 0);
    std::function<void(int)> visit = [&](int gid) {
      if (state[gid] == 2) return;
      TZ_ASSERT(state[gid] != 1, "cycle between kernels");
      state[gid] = 1;
      for (int d : deps_[gid]) visit(d);
      state[gid] = 2;
      order.push_back(gid);
    };
    for (size_t i = 0; i < s_.groups.size(); ++i) visit(static_cast<int>(i));
    std::vector<Group> sorted;
    std::vector<int> renumber(s_.groups.size());
    for (int old : order) {
      renumber[old] = static_cast<int>(sorted.size());
      sorted.push_back(s_.groups[old]);
      sorted.back().id = renumber[old];
    }
    for (auto& gid : s_.group_of) {
      if (gid >= 0) gid = renumber[gid];
    }
    s_.groups = std::move(sorted);
  }

  static constexpr int kMaxInlined = 16;
  Schedule& s_;
  Graph& g_;
  std::vector<std::set<int>> deps_;
  std::map<const Node*, bool> inlinable_;
  std::vector<std::vector<const Node*>> users_;  // live users of each node
};

// Does the view chain of `n` flip, slice or pad (views that forward() cannot print as a free view)?
bool moves_indices(const Node* n) {
  for (; op_kind(n->op) == OpKind::View; n = n->src[0]) {
    if (n->op == Op::Flip || n->op == Op::Slice || n->op == Op::Pad) return true;
  }
  return false;
}

// Outputs that are inputs, parameters or views of them get a copy, so no result aliases an input; so do
// flipped, sliced and padded views, which the returned expression could not express. Buffer updates always
// get one: the copy is the node stored into the buffer, whatever else reads its source.
void copy_leaf_outputs(Graph& g) {
  for (auto& o : g.outputs) {
    if (op_kind(view_root(o)->op) == OpKind::Leaf || moves_indices(o)) o = g.unary(Op::Copy, o, o->loc);
  }
  for (auto& u : g.updates) u.value = g.unary(Op::Copy, u.value, u.value->loc);
}

// A reshape that no strided view can express reads a contiguous copy of its source instead:
// reshape(x) => reshape(copy(x)) when x's strides do not allow the view.
std::unique_ptr<Graph> copy_unviewable(std::unique_ptr<Graph> g) {
  bool any = false;
  for (const auto& n : g->nodes()) {
    std::vector<int64_t> st;
    if (n->op == Op::Reshape && !view_strides(n.get(), st)) any = true;
  }
  if (!any) return g;
  return rewrite_graph(*g, [](Graph& out, const Node* old, const std::vector<const Node*>& src) {
    if (old->op == Op::Reshape) {
      std::vector<int64_t> st;
      const Node* candidate = rebuild(out, old, src);
      if (op_kind(candidate->op) == OpKind::View && !view_strides(candidate, st)) {
        return out.make(Op::Reshape, old->dtype, old->shape, {out.unary(Op::Copy, src[0], old->loc)}, old->attr,
                        old->loc);
      }
      return candidate;
    }
    return rebuild(out, old, src);
  });
}

}  // namespace

Schedule fuse(std::unique_ptr<Graph> g) {
  copy_leaf_outputs(*g);
  Schedule s;
  s.graph = copy_unviewable(std::move(g));
  Fuser(s).run();
  return s;
}

std::string dump_schedule(const Schedule& s) {
  std::ostringstream os;
  const char* kinds[] = {"pointwise", "reduction", "matmul", "conv", "window", "attention", "scan"};
  for (const auto& grp : s.groups) {
    os << "kernel " << grp.id << " " << kinds[static_cast<int>(grp.kind)] << " space " << shape_str(grp.space);
    if (!grp.axes.empty()) {
      os << " axes {";
      for (size_t i = 0; i < grp.axes.size(); ++i) os << (i ? "," : "") << grp.axes[i];
      os << "}";
    }
    if (!grp.axes2.empty()) {
      os << " {";
      for (size_t i = 0; i < grp.axes2.size(); ++i) os << (i ? "," : "") << grp.axes2[i];
      os << "}";
    }
    os << ":";
    for (auto* n : grp.nodes) {
      os << " " << op_name(n->op);
      if (s.materialized[n->id]) os << "*";
    }
    if (!grp.inlined.empty()) {
      os << " | recomputed:";
      for (auto* n : grp.inlined) os << " " << op_name(n->op);
    }
    os << "\n";
  }
  return os.str();
}

}  // namespace tz
