// fuse_attention (see fuse_attention.h). One rule, applied where every intermediate has a single use:
//   matmul(softmax(mask(scale(matmul(q, kt))), -1), v) => attention(q, kt, v[, m])
// where scale(s) is s * c, c * s or s / c for a scalar constant c (or absent; q * c before the product
// is folded in too), and mask(s) is absent,
// where(m, fill, s) (masked_fill), where(m, s, fill) for a constant fill, or s + m / m + s.
#include "passes/fuse_attention.h"

#include <cmath>
#include <map>

#include "graph/view.h"

namespace tz {

namespace {

struct Match {
  const Node* q = nullptr;
  const Node* kt = nullptr;
  const Node* v = nullptr;
  const Node* mask = nullptr;
  Attr attr;
};

class Matcher {
 public:
  explicit Matcher(const Graph& g) {
    std::vector<const Node*> stack(g.outputs.begin(), g.outputs.end());
    std::map<const Node*, bool> live;
    while (!stack.empty()) {  // uses by live nodes only: dead code does not block a match
      const Node* n = stack.back();
      stack.pop_back();
      if (live[n]) continue;
      live[n] = true;
      for (auto* s : n->src) {
        ++uses_[s];
        stack.push_back(s);
      }
    }
    for (auto* o : g.outputs) uses_[o] += 2;  // an output is never folded away
  }

  bool match(const Node* pv, Match& m) const {
    if (pv->op != Op::Matmul) return false;
    const Node* p = pv->src[0];
    const Node* v = pv->src[1];
    if (p->op != Op::Softmax || p->attr.ints[0] != p->rank() - 1 || !single(p)) return false;
    const Node* x = p->src[0];
    int64_t kind = 0;
    double fill = -INFINITY;
    const Node* mask = nullptr;
    const Node* mm = nullptr;
    double scale = 1.0;
    if (x->op == Op::Where && single(x)) {
      if (constant(x->src[1], fill) && scores(x->src[2], mm, scale)) kind = 2;
      else if (constant(x->src[2], fill) && scores(x->src[1], mm, scale)) kind = 1;
      else return false;
      mask = x->src[0];
    } else if (x->op == Op::Add && single(x)) {
      kind = 3;
      if (scores(x->src[0], mm, scale)) mask = x->src[1];
      else if (scores(x->src[1], mm, scale)) mask = x->src[0];
      else return false;
    } else if (!scores(x, mm, scale)) {
      return false;
    }
    // The mask stage must not widen the scores (a mask with more batch dims than q @ kt).
    if (x->shape != mm->shape || x->dtype != mm->dtype || p->dtype != mm->dtype) return false;
    const Node* q = mm->src[0];
    const Node* kt = mm->src[1];
    // A query scaled before the product: (q * c) @ kt => scale c folded into the kernel's.
    double qc = 1.0;
    if (q->op == Op::Mul && single(q) && q->shape == q->src[0]->shape && constant(q->src[1], qc) &&
        numel(q->src[1]->shape) == 1) {
      scale *= qc;
      q = q->src[0];
    }
    if (q->dtype != v->dtype || kt->dtype != v->dtype || !is_floating(v->dtype)) return false;
    if (q->shape.back() > 256 || v->shape.back() > 256) return false;
    m.q = q;
    m.kt = kt;
    m.v = v;
    m.mask = mask;
    m.attr.ints = {0, kind, 0};
    m.attr.floats = {scale, fill};
    return true;
  }

 private:
  bool single(const Node* n) const {
    auto it = uses_.find(n);
    return it != uses_.end() && it->second == 1;
  }

  // A scalar constant, possibly reshaped or expanded.
  static bool constant(const Node* n, double& value) {
    const Node* root = view_root(n);
    if (root->op != Op::Const) return false;
    value = root->attr.f;
    return true;
  }

  // matmul(q, kt), optionally scaled by a constant.
  bool scores(const Node* n, const Node*& mm, double& scale) const {
    double c = 1.0;
    if (!single(n)) return false;
    if (n->op == Op::Mul && constant(n->src[1], c) && numel(n->src[1]->shape) == 1) {
      scale = c;
      n = n->src[0];
    } else if (n->op == Op::Mul && constant(n->src[0], c) && numel(n->src[0]->shape) == 1) {
      scale = c;
      n = n->src[1];
    } else if (n->op == Op::Div && constant(n->src[1], c) && numel(n->src[1]->shape) == 1 && c != 0.0) {
      scale = 1.0 / c;
      n = n->src[0];
    }
    if (n->op != Op::Matmul || !single(n)) return false;
    mm = n;
    return true;
  }

  std::map<const Node*, int> uses_;
};

}  // namespace

std::unique_ptr<Graph> fuse_attention(const Graph& g) {
  Matcher matcher(g);
  std::map<const Node*, const Node*> mapped;
  return rewrite_graph(g, [&](Graph& out, const Node* old, const std::vector<const Node*>& src) {
    const Node* r = nullptr;
    Match m;
    if (old->op == Op::Input) {
      r = out.input(static_cast<int>(old->attr.ints[0]));
    } else if (matcher.match(old, m)) {
      r = out.attention(mapped.at(m.q), mapped.at(m.kt), mapped.at(m.v), m.mask ? mapped.at(m.mask) : nullptr,
                        m.attr, old->loc);
    } else {
      r = rebuild(out, old, src);
    }
    mapped[old] = r;
    return r;
  });
}

}  // namespace tz
