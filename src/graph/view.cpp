// View strides and dim maps (see view.h).
#include "graph/view.h"

#include "graph/graph.h"

namespace tz {

const Node* view_root(const Node* n) {
  while (op_kind(n->op) == OpKind::View) n = n->src[0];
  return n;
}

bool reshape_strides(const Shape& shape, const std::vector<int64_t>& strides, const Shape& new_shape,
                     std::vector<int64_t>& out) {
  // Walk old dims in chunks that are contiguous among themselves; each chunk must be covered exactly by a
  // run of new dims (the algorithm of ATen's computeStride).
  out.assign(new_shape.size(), 0);
  if (numel(shape) == 0) return true;
  if (shape.empty()) {  // a 0-d tensor viewed with unit dims ([] -> [1, 1])
    out = contiguous_strides(new_shape);
    return true;
  }
  int64_t view_d = static_cast<int64_t>(new_shape.size()) - 1;
  int64_t chunk_base_stride = strides.empty() ? 1 : strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    tensor_numel *= shape[d];
    if (d == 0 || (shape[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= new_shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return false;
      if (d > 0) {
        chunk_base_stride = strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}

bool view_strides(const Node* n, std::vector<int64_t>& strides) {
  int64_t offset = 0;
  return view_layout(n, strides, offset);
}

std::vector<PadRange> view_pads(const Node* n) {
  std::vector<PadRange> pads;
  for (; n->op == Op::Pad; n = n->src[0]) {
    int dim = static_cast<int>(n->attr.ints[0]);
    int64_t before = n->attr.ints[1];
    pads.push_back(PadRange{dim, before, before + n->src[0]->shape[dim]});
  }
  return pads;
}

bool cat_pieces(const Node* cat, std::vector<CatPiece>& pieces) {
  pieces.clear();
  if (cat->op != Op::Add || cat->src.size() != 2) return false;
  for (const Node* leaf : cat->src) {
    if (leaf->op != Op::Pad || leaf->shape != cat->shape) return false;
    std::vector<PadRange> pads = view_pads(leaf);
    if (pads.size() != 1) return false;
    CatPiece piece{pads[0].dim, pads[0].lo, pads[0].hi, nullptr, 0};
    const Node* n = leaf->src[0];
    if (view_root(n)->op == Op::Const) {
      n = view_root(n);
    } else {
      for (; n->op == Op::Slice; n = n->src[0]) {  // ints = {dim, start, step}
        if (n->attr.ints[0] != piece.dim || n->attr.ints[2] != 1) return false;
        piece.start += n->attr.ints[1];
      }
      if (op_kind(n->op) == OpKind::View || n->rank() != cat->rank()) return false;
      for (int d = 0; d < cat->rank(); ++d) {
        if (d != piece.dim && n->shape[d] != cat->shape[d]) return false;
      }
    }
    piece.root = n;
    pieces.push_back(piece);
  }
  const CatPiece &a = pieces[0], &b = pieces[1];
  int64_t size = cat->shape[a.dim];
  bool cover = a.dim == b.dim && ((a.lo == 0 && a.hi == b.lo && b.hi == size) || (b.lo == 0 && b.hi == a.lo && a.hi == size));
  if (!cover) pieces.clear();
  return cover;
}

bool view_layout(const Node* n, std::vector<int64_t>& strides, int64_t& offset) {
  if (op_kind(n->op) != OpKind::View) {
    strides = contiguous_strides(n->shape);
    offset = 0;
    return true;
  }
  std::vector<int64_t> src;
  if (!view_layout(n->src[0], src, offset)) return false;
  if (n->src[0]->op == Op::Pad && n->op != Op::Pad) return false;  // pads are only ever at the top of a chain
  const Shape& in = n->src[0]->shape;
  switch (n->op) {
    case Op::Flip:
      strides = src;
      for (auto d : n->attr.ints) {
        offset += (in[d] - 1) * src[d];
        strides[d] = -src[d];
      }
      return true;
    case Op::Slice:
      strides = src;
      offset += n->attr.ints[1] * src[n->attr.ints[0]];
      strides[n->attr.ints[0]] = src[n->attr.ints[0]] * n->attr.ints[2];
      return true;
    case Op::Pad:
      strides = src;
      offset -= n->attr.ints[1] * src[n->attr.ints[0]];
      return true;
    case Op::Permute:
      strides.clear();
      for (auto p : n->attr.ints) strides.push_back(src[p]);
      return true;
    case Op::Expand:
      strides = src;
      for (size_t i = 0; i < in.size(); ++i) {
        if (in[i] == 1 && n->shape[i] != 1) strides[i] = 0;
      }
      return true;
    case Op::Reshape: return reshape_strides(in, src, n->shape, strides);
    default: return false;
  }
}

namespace {
bool is_prefix(const Node* slice) { return slice->attr.ints[1] == 0 && slice->attr.ints[2] == 1; }
}  // namespace

bool view_source_map(const Node* view, const std::vector<int>& map, std::vector<int>& src_map) {
  const Shape& in = view->src[0]->shape;
  src_map.assign(in.size(), -1);
  switch (view->op) {
    case Op::Permute:
      for (size_t j = 0; j < map.size(); ++j) src_map[view->attr.ints[j]] = map[j];
      return true;
    case Op::Expand:
      for (size_t j = 0; j < in.size(); ++j) src_map[j] = (in[j] == 1 && view->shape[j] != 1) ? -1 : map[j];
      return true;
    case Op::Slice:  // a prefix of its source (x[:, :-1]) keeps every index
      if (is_prefix(view)) {
        src_map = map;
        return true;
      }
      return false;
    case Op::Reshape: {
      // Only reshapes that insert or remove unit dims keep a per-dim correspondence.
      std::vector<size_t> in_dims, out_dims;
      for (size_t j = 0; j < in.size(); ++j) {
        if (in[j] != 1) in_dims.push_back(j);
      }
      for (size_t j = 0; j < view->shape.size(); ++j) {
        if (view->shape[j] != 1) out_dims.push_back(j);
      }
      if (in_dims.size() != out_dims.size()) return false;
      for (size_t k = 0; k < in_dims.size(); ++k) {
        if (in[in_dims[k]] != view->shape[out_dims[k]]) return false;
        src_map[in_dims[k]] = map[out_dims[k]];
      }
      return true;
    }
    default: return false;
  }
}

std::vector<int> broadcast_map(const Shape& operand, const Shape& out, const std::vector<int>& map) {
  std::vector<int> result(operand.size(), -1);
  size_t offset = out.size() - operand.size();
  for (size_t j = 0; j < operand.size(); ++j) {
    result[j] = (operand[j] == 1 && out[j + offset] != 1) ? -1 : map[j + offset];
    if (operand[j] == 1) result[j] = -1;
  }
  return result;
}

}  // namespace tz
