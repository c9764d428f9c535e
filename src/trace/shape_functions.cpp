// Shape and index functions (see shape_functions.h), each written with the graph ops the tracer already has: no
// new op, so fusion and lowering see slices, pads, expands, iotas and pointwise ops they know.
#include "trace/shape_functions.h"

#include <cmath>

#include "trace/tensor_ops.h"

namespace tz::tracer {

namespace {

std::string ints_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// A tensor of `shape` that only carries a shape (get_inputs, __init__: the caller replays the call).
Value shape_only_tensor(Interp& in, const Shape& shape, DType dtype) {
  return in.wrap(in.new_tensor(shape, dtype, Phase::Shape));
}

// The graph node of a forward tensor, with the located error for a tensor made outside forward().
const Node* node_of(const TensorObj* t, SourceLoc loc) {
  if (!t->node) fail(loc, "a tensor created outside forward() that is not a parameter or buffer of the module is used here");
  return t->node;
}

Value from_node(Interp& in, const Node* n) {
  TensorObj* t = in.new_tensor(n->shape, n->dtype, Phase::Forward);
  t->node = n;
  return in.wrap(t);
}

// [0, 1, ..., n-1] (int64): the iota leaf in forward, a shape elsewhere.
Value iota(Interp& in, int64_t n, SourceLoc loc) {
  if (in.phase != Phase::Forward) return shape_only_tensor(in, {n}, DType::Int64);
  return from_node(in, in.graph->make(Op::Iota, DType::Int64, {n}, {}, {}, loc));
}

int64_t dim_size(const Value& x, int64_t dim) { return tensor_of(x)->shape[static_cast<size_t>(dim)]; }

// cat([x[size - s:], x[:size - s]], dim): torch.roll along one dim (ATen's roll_common: a shift taken modulo the
// size, the two pieces swapped; its CPU kernel and this cat both move values without arithmetic).
Value roll_dim(Interp& in, const Value& x, int64_t shift, int64_t dim, SourceLoc loc) {
  int64_t size = dim_size(x, dim);
  int64_t s = ((shift % size) + size) % size;
  if (s == 0) return x;
  return t_cat(in, {t_narrow(in, x, dim, size - s, s, loc), t_narrow(in, x, dim, 0, size - s, loc)}, dim, false,
               "torch.roll", loc);
}

// One dim of a non-constant F.pad, as the cat of the pieces ATen's kernels read (ReflectionPad.cpp,
// ReplicationPad.cpp, PadNd.cpp's _pad_circular): each output element is one input element, moved.
Value pad_dim_by_mode(Interp& in, const Value& x, int64_t dim, int64_t lo, int64_t hi, const std::string& mode,
                      SourceLoc loc) {
  int64_t size = dim_size(x, dim);
  std::vector<Value> parts;
  auto edge = [&](int64_t at, int64_t count) {  // replicate: x[at] repeated `count` times
    Shape s = tensor_of(x)->shape;
    s[static_cast<size_t>(dim)] = count;
    return t_expand(in, t_narrow(in, x, dim, at, 1, loc), s, loc);
  };
  if (lo > 0) {
    if (mode == "reflect") parts.push_back(t_flip(in, t_narrow(in, x, dim, 1, lo, loc), {dim}, loc));
    else if (mode == "replicate") parts.push_back(edge(0, lo));
    else parts.push_back(t_narrow(in, x, dim, size - lo, lo, loc));
  }
  parts.push_back(x);
  if (hi > 0) {
    if (mode == "reflect") parts.push_back(t_flip(in, t_narrow(in, x, dim, size - 1 - hi, hi, loc), {dim}, loc));
    else if (mode == "replicate") parts.push_back(edge(size - 1, hi));
    else parts.push_back(t_narrow(in, x, dim, 0, hi, loc));
  }
  if (parts.size() == 1) return x;
  return t_cat(in, parts, dim, false, "F.pad", loc);
}

}  // namespace

Value t_split(Interp& in, const Value& x, int64_t split_size, int64_t dim, const std::string& name, SourceLoc loc) {
  TensorObj* t = need_tensor(x, name, loc);
  if (t->rank() == 0) fail(loc, name + " expects at least a 1-dimensional tensor");
  dim = norm_dim(dim, t->rank(), loc);
  if (split_size < 0) fail(loc, name + " expects split_size be non-negative, but got split_size=" + std::to_string(split_size));
  int64_t size = t->shape[static_cast<size_t>(dim)];
  if (split_size == 0) fail(loc, name + ": split_size can only be 0 if dimension size is 0, but got dimension size of " + std::to_string(size));
  // ATen's split: max(ceil(size / split_size), 1) pieces, the last one holding what is left.
  std::vector<Value> pieces;
  for (int64_t start = 0; start < size; start += split_size) {
    pieces.push_back(t_narrow(in, x, dim, start, std::min(split_size, size - start), loc));
  }
  return in.tuple(std::move(pieces));
}

Value t_split_sizes(Interp& in, const Value& x, const std::vector<int64_t>& sizes, int64_t dim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "split", loc);
  if (t->rank() == 0) fail(loc, "split expects at least a 1-dimensional tensor");
  dim = norm_dim(dim, t->rank(), loc);
  int64_t size = t->shape[static_cast<size_t>(dim)], total = 0;
  for (int64_t s : sizes) {
    if (s < 0) fail(loc, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=" + ints_text(sizes));
    total += s;
  }
  if (total != size) {
    fail(loc, "split_with_sizes expects split_sizes to sum exactly to " + std::to_string(size) +
                  " (input tensor's size at dimension " + std::to_string(dim) + "), but got split_sizes=" +
                  ints_text(sizes));
  }
  std::vector<Value> pieces;
  int64_t start = 0;
  for (int64_t s : sizes) {
    if (s == 0) fail(loc, "split: a section of size 0 is an empty tensor: tensors with no elements are not supported");
    pieces.push_back(t_narrow(in, x, dim, start, s, loc));
    start += s;
  }
  return in.tuple(std::move(pieces));
}

Value t_chunk(Interp& in, const Value& x, int64_t chunks, int64_t dim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "chunk", loc);
  if (t->rank() == 0) fail(loc, "chunk expects at least a 1-dimensional tensor");
  if (chunks <= 0) fail(loc, "chunk expects `chunks` to be greater than 0, got: " + std::to_string(chunks));
  dim = norm_dim(dim, t->rank(), loc);
  // ATen's chunk: split(ceil(size / chunks)), which gives fewer pieces than asked when the sizes do not fit
  // (a dim of 5 in 4 chunks is 3 pieces of 2, 2, 1).
  int64_t size = t->shape[static_cast<size_t>(dim)];
  return t_split(in, x, (size + chunks - 1) / chunks, dim, "chunk", loc);
}

Value t_unbind(Interp& in, const Value& x, int64_t dim, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "unbind", loc);
  if (t->rank() == 0) fail(loc, "unbind: dimension specified as 0 but tensor has no dimensions");
  dim = norm_dim(dim, t->rank(), loc);
  std::vector<Value> pieces;
  for (int64_t i = 0; i < t->shape[static_cast<size_t>(dim)]; ++i) pieces.push_back(t_select(in, x, dim, i, loc));
  return in.tuple(std::move(pieces));
}

Value t_pad(Interp& in, const Value& x, const std::vector<int64_t>& pad, const std::string& mode, double value,
            SourceLoc loc) {
  TensorObj* t = need_tensor(x, "F.pad", loc);
  const int rank = t->rank();
  if (pad.size() % 2 != 0) fail(loc, "F.pad: padding length must be divisible by 2, got " + std::to_string(pad.size()));
  if (static_cast<int64_t>(pad.size()) > 2 * rank) {
    fail(loc, "F.pad: padding length should be less than or equal to two times the input dimension but got padding "
              "length " + std::to_string(pad.size()) + " and input of dimension " + std::to_string(rank));
  }
  const int npad = static_cast<int>(pad.size() / 2);
  auto pair_dim = [&](int i) { return static_cast<int64_t>(rank - 1 - i); };  // pad[2i], pad[2i+1] pad this dim
  if (mode != "constant") {
    if (mode != "reflect" && mode != "replicate" && mode != "circular") {
      fail(loc, "F.pad: unrecognised padding mode '" + mode + "' (constant, reflect, replicate or circular)");
    }
    if (value != 0.0) fail(loc, "F.pad: padding mode \"" + mode + "\" doesn't take in value argument");
    // ATen's _pad_enum: these modes pad the last 1, 2 or 3 dims of an input with one or two dims more.
    if (npad < 1 || npad > 3 || (rank != npad + 1 && rank != npad + 2)) {
      fail(loc, "F.pad: mode '" + mode + "' pads the last 1, 2 or 3 dims of a 2-D to 5-D input (one or two leading "
                "dims); got " + std::to_string(pad.size()) + " pads for an input " + shape_str(t->shape));
    }
    Value cur = x;
    for (int i = 0; i < npad; ++i) {
      int64_t d = pair_dim(i), lo = pad[2 * i], hi = pad[2 * i + 1], size = t->shape[static_cast<size_t>(d)];
      if (lo < 0 || hi < 0) {
        fail(loc, "F.pad: negative padding (cropping) with mode '" + mode + "' is not supported (only with mode "
                  "'constant')");
      }
      if (mode == "reflect" && (lo >= size || hi >= size)) {
        fail(loc, "F.pad: padding size should be less than the corresponding input dimension, but got: padding (" +
                      std::to_string(lo) + ", " + std::to_string(hi) + ") at dimension " + std::to_string(d) +
                      " of input " + shape_str(t->shape));
      }
      if (mode == "circular" && (lo > size || hi > size)) {
        fail(loc, "F.pad: padding value causes wrapping around more than once (padding (" + std::to_string(lo) +
                      ", " + std::to_string(hi) + ") at dimension " + std::to_string(d) + " of size " +
                      std::to_string(size) + ")");
      }
      cur = pad_dim_by_mode(in, cur, d, lo, hi, mode, loc);
    }
    return cur;
  }
  // ATen's constant_pad_nd: negative pads first narrow the input, then the output is filled with `value` and the
  // (narrowed) input copied into its middle. Here: the narrowed input under zero pads (the view torch.cat uses),
  // and where the pads are, the value: where(pad(true), pad(x), value).
  Value cur = x;
  Shape out = t->shape;
  for (int i = 0; i < npad; ++i) {
    int64_t d = pair_dim(i), lo = pad[2 * i], hi = pad[2 * i + 1], size = t->shape[static_cast<size_t>(d)];
    int64_t new_size = size + lo + hi;
    if (new_size <= 0) {
      fail(loc, "F.pad: the input size " + std::to_string(size) + ", plus negative padding " + std::to_string(lo) +
                    " and " + std::to_string(hi) + " resulted in an output size of " + std::to_string(new_size) +
                    (new_size < 0 ? ", which is invalid" : ": tensors with no elements are not supported"));
    }
    int64_t start = std::max<int64_t>(-lo, 0), length = size + std::min<int64_t>(lo, 0) + std::min<int64_t>(hi, 0);
    if (length <= 0) {
      fail(loc, "F.pad: the negative padding (" + std::to_string(lo) + ", " + std::to_string(hi) +
                    ") leaves nothing of dim " + std::to_string(d) + " of size " + std::to_string(size) +
                    ": a padding of no input is not supported");
    }
    if (start != 0 || length != size) cur = t_narrow(in, cur, d, start, length, loc);
    out[static_cast<size_t>(d)] = new_size;
  }
  check_shape(out, loc);
  if (in.phase != Phase::Forward) return shape_only_tensor(in, out, t->dtype);
  // fill_(value) converts the value to the tensor's type (integers truncate).
  double fill = t->dtype == DType::Bool ? (value != 0.0 ? 1.0 : 0.0) : is_integral(t->dtype) ? std::trunc(value) : value;
  Graph& g = *in.graph;
  auto padded = [&](const Node* n) {
    for (int i = 0; i < npad; ++i) {
      int64_t d = pair_dim(i), lo = std::max<int64_t>(pad[2 * i], 0), hi = std::max<int64_t>(pad[2 * i + 1], 0);
      n = g.pad(n, d, lo, hi, loc);
    }
    return n;
  };
  const Node* body = padded(node_of(tensor_of(cur), loc));
  const Shape& inner = tensor_of(cur)->shape;
  if (body->shape == inner) return cur;
  // (a pad is only ever read directly by a pointwise op, ops.def: the zero pad is read by a copy, which a
  // pointwise consumer inlines and any later view sees as a computed value)
  if (fill == 0.0) return from_node(in, g.unary(Op::Copy, body, loc));
  const Node* ones = g.expand(g.reshape(g.constant(1.0, DType::Bool), Shape(inner.size(), 1), loc), inner, loc);
  return from_node(in, g.where(padded(ones), body, g.constant(fill, t->dtype), loc));
}

Value t_roll(Interp& in, const Value& x, const std::vector<int64_t>& shifts, std::optional<std::vector<int64_t>> dims,
             SourceLoc loc) {
  TensorObj* t = need_tensor(x, "torch.roll", loc);
  if (shifts.empty()) fail(loc, "torch.roll: `shifts` required");
  if (!dims) {
    // ATen: no dims rolls the flattened tensor and restores its shape.
    if (shifts.size() != 1) {
      fail(loc, "torch.roll: shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
                    ", dims: 0");
    }
    int64_t n = numel(t->shape);
    return t_reshape(in, roll_dim(in, t_reshape(in, x, {n}, loc), shifts[0], 0, loc), t->shape, loc);
  }
  if (shifts.size() != dims->size()) {
    fail(loc, "torch.roll: shifts and dimensions must align. shifts: " + std::to_string(shifts.size()) +
                  ", dims: " + std::to_string(dims->size()));
  }
  if (t->rank() == 0) fail(loc, "torch.roll: a 0-d tensor has no dim to roll along");
  Value cur = x;
  for (size_t i = 0; i < shifts.size(); ++i) cur = roll_dim(in, cur, shifts[i], norm_dim((*dims)[i], t->rank(), loc), loc);
  return cur;
}

Value t_repeat(Interp& in, const Value& x, std::vector<int64_t> repeats, bool tile, SourceLoc loc) {
  const std::string name = tile ? "torch.tile" : "Tensor.repeat";
  TensorObj* t = need_tensor(x, name, loc);
  size_t rank = static_cast<size_t>(t->rank());
  if (repeats.size() < rank) {
    if (!tile) {
      fail(loc, "Tensor.repeat: number of dimensions of repeat dims (" + std::to_string(repeats.size()) +
                    ") can not be smaller than number of dimensions of tensor (" + std::to_string(rank) + ")");
    }
    repeats.insert(repeats.begin(), rank - repeats.size(), 1);  // tile: missing repeats are leading 1s
  }
  for (int64_t r : repeats) {
    if (r < 0) fail(loc, name + ": trying to create tensor with negative dimension " + std::to_string(r));
    if (r == 0) fail(loc, name + ": a repeat of 0 gives a tensor with no elements: not supported");
  }
  // ATen's repeat: the input seen as [1, s0, 1, s1, ...] expanded to [r0, s0, r1, s1, ...], then merged to
  // [r0 * s0, r1 * s1, ...] (x is the leading dims' size-1 padded view of the input).
  Shape padded(repeats.size() - rank, 1);
  padded.insert(padded.end(), t->shape.begin(), t->shape.end());
  Shape split, expanded, out;
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] != 1 && padded[i] != 1) {
      split.push_back(1);
      expanded.push_back(repeats[i]);
    }
    split.push_back(padded[i]);
    expanded.push_back(padded[i] == 1 ? repeats[i] : padded[i]);
    out.push_back(repeats[i] * padded[i]);
  }
  check_shape(out, loc);
  return t_reshape(in, t_expand(in, t_reshape(in, x, split, loc), expanded, loc), out, loc);
}

Value t_arange(Interp& in, const Value& start, const Value& step, int64_t n, DType dtype, SourceLoc loc) {
  Value i = iota(in, n, loc);
  if (is_integral(dtype) || dtype == DType::Bool) {
    // ATen's arange kernels convert start and step to the result's accumulate type: int64 for integer results
    // (a float start or step truncates).
    int64_t s = static_cast<int64_t>(start.as_double()), st = static_cast<int64_t>(step.as_double());
    Value v = i;
    if (st != 1) v = t_binary(in, Op::Mul, v, Value::integer(st), loc);
    if (s != 0) v = t_binary(in, Op::Add, v, Value::integer(s), loc);
    v = t_cast(in, v, dtype, loc);
    // A bare iota is no value in memory: fusion maps only views that keep its indices (a reshape, an expand), so
    // torch.arange(n) is its copy, which a flip, a slice or a pad can read like any computed value.
    const Node* n = tensor_of(v)->node;
    return n->op == Op::Iota ? from_node(in, in.graph->unary(Op::Copy, n, loc)) : v;
  }
  // ATen's CUDA kernel (RangeFactories.cu): `xstart + xstep * ind` in the accumulate type, float32 for float32,
  // float16 and bfloat16 results (start and step rounded to float32 first), then rounded to the result's type.
  // (Its CPU kernel differs: float32 in double, 16-bit types from a base rounded to the type every vector of
  // values; within an ulp of the 16-bit type of this.)
  Value v = t_cast(in, i, DType::Float32, loc);
  auto f32 = [](double d) { return Value::floating(static_cast<double>(static_cast<float>(d))); };
  if (step.as_double() != 1.0) v = t_binary(in, Op::Mul, v, f32(step.as_double()), loc);
  if (start.as_double() != 0.0) v = t_binary(in, Op::Add, v, f32(start.as_double()), loc);
  return t_cast(in, v, dtype, loc);
}

Value t_one_hot(Interp& in, const Value& x, int64_t num_classes, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "F.one_hot", loc);
  if (t->dtype != DType::Int64) {
    fail(loc, std::string("F.one_hot is only applicable to index tensor of type LongTensor, got ") +
                  torch_dtype_name(t->dtype));
  }
  if (num_classes == -1) {
    fail(loc, "F.one_hot with num_classes=-1 sizes its result by the largest value in the tensor (its data): not "
              "supported, give num_classes");
  }
  if (num_classes < 1) fail(loc, "F.one_hot: num_classes should be positive, got " + std::to_string(num_classes));
  // ATen's one_hot (Onehot.cpp) scatters 1 at each index into zeros; x[..., None] == [0, ..., C-1] is the same
  // tensor for indices in range (eager checks the range on the data; here an index out of range gives a zero row).
  Value classes = iota(in, num_classes, loc);
  return t_cast(in, t_binary(in, Op::Eq, t_unsqueeze(in, x, -1, loc), classes, loc), DType::Int64, loc);
}

Value t_count_nonzero(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "count_nonzero", loc);
  // ATen: (x != 0).sum(dims) (a NaN is nonzero), int64.
  Value nz = t->dtype == DType::Bool ? x : t_binary(in, Op::Ne, x, Value::integer(0), loc);
  return t_reduce(in, Op::Sum, t_cast(in, nz, DType::Int64, loc), std::move(dims), false, loc);
}

Value t_outer(Interp& in, const Value& a, const Value& b, const std::string& name, SourceLoc loc) {
  TensorObj* ta = need_tensor(a, name, loc);
  TensorObj* tb = need_tensor(b, name, loc);
  if (ta->rank() != 1) fail(loc, name + ": Expected 1-D argument self, but got " + std::to_string(ta->rank()) + "-D");
  if (tb->rank() != 1) fail(loc, name + ": Expected 1-D argument vec2, but got " + std::to_string(tb->rank()) + "-D");
  // ATen's outer: self.reshape({n, 1}) * vec2.
  return t_binary(in, Op::Mul, t_reshape(in, a, {ta->shape[0], 1}, loc), b, loc);
}

Value t_dot(Interp& in, const Value& a, const Value& b, const std::string& name, SourceLoc loc) {
  TensorObj* ta = need_tensor(a, name, loc);
  TensorObj* tb = need_tensor(b, name, loc);
  if (ta->rank() != 1 || tb->rank() != 1) {
    fail(loc, name + ": 1D tensors expected, but got " + std::to_string(ta->rank()) + "D and " +
                  std::to_string(tb->rank()) + "D tensors");
  }
  if (ta->shape[0] != tb->shape[0]) {
    fail(loc, name + ": inconsistent tensor size, expected tensor " + shape_str(ta->shape) + " and src " +
                  shape_str(tb->shape) + " to have the same number of elements");
  }
  return t_matmul(in, a, b, loc, name.c_str());
}

Value t_inner(Interp& in, const Value& a, const Value& b, SourceLoc loc) {
  TensorObj* ta = need_tensor(a, "torch.inner", loc);
  TensorObj* tb = need_tensor(b, "torch.inner", loc);
  // ATen's inner: a 0-d operand multiplies; else tensordot over the last dims (a matrix product).
  if (ta->rank() == 0 || tb->rank() == 0) return t_binary(in, Op::Mul, a, b, loc);
  int64_t k = ta->shape.back();
  if (k != tb->shape.back()) {
    fail(loc, "torch.inner: the last dimension must match on both input tensors but got shapes " +
                  shape_str(ta->shape) + " and " + shape_str(tb->shape));
  }
  if (ta->rank() == 1 && tb->rank() == 1) return t_dot(in, a, b, "torch.inner", loc);
  Shape out(ta->shape.begin(), ta->shape.end() - 1);
  out.insert(out.end(), tb->shape.begin(), tb->shape.end() - 1);
  int64_t m = numel(ta->shape) / k, n = numel(tb->shape) / k;
  Value bt = t_transpose(in, t_reshape(in, b, {n, k}, loc), 0, 1, loc);
  return t_reshape(in, t_matmul(in, t_reshape(in, a, {m, k}, loc), bt, loc, "torch.inner"), out, loc);
}

Value t_pixel_shuffle(Interp& in, const Value& x, int64_t r, bool unshuffle, SourceLoc loc) {
  const std::string name = unshuffle ? "pixel_unshuffle" : "pixel_shuffle";
  TensorObj* t = need_tensor(x, name, loc);
  if (t->rank() < 3) fail(loc, name + " expects input to have at least 3 dimensions, but got input with " +
                                   std::to_string(t->rank()) + " dimension(s)");
  if (r <= 0) fail(loc, name + " expects a positive " + (unshuffle ? "downscale" : "upscale") + "_factor, got " +
                        std::to_string(r));
  Shape s = t->shape;
  const size_t k = s.size();
  std::vector<int64_t> batch(s.begin(), s.end() - 3);
  int64_t c = s[k - 3], h = s[k - 2], w = s[k - 1];
  std::vector<int64_t> split = batch, perm, merged = batch;
  const int64_t nb = static_cast<int64_t>(batch.size());
  for (int64_t i = 0; i < nb; ++i) perm.push_back(i);
  if (!unshuffle) {
    if (c % (r * r) != 0) {
      fail(loc, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
                "but input.size(-3)=" + std::to_string(c) + " is not divisible by " + std::to_string(r * r));
    }
    // [*, C, r, r, H, W] -> [*, C, H, r, W, r]
    split.insert(split.end(), {c / (r * r), r, r, h, w});
    for (int64_t i : {0, 3, 1, 4, 2}) perm.push_back(nb + i);
    merged.insert(merged.end(), {c / (r * r), h * r, w * r});
  } else {
    if (h % r != 0 || w % r != 0) {
      fail(loc, "pixel_unshuffle expects height and width to be divisible by downscale_factor, got " +
                    shape_str(t->shape) + " and " + std::to_string(r));
    }
    // [*, C, H / r, r, W / r, r] -> [*, C, r, r, H / r, W / r]
    split.insert(split.end(), {c, h / r, r, w / r, r});
    for (int64_t i : {0, 2, 4, 1, 3}) perm.push_back(nb + i);
    merged.insert(merged.end(), {c * r * r, h / r, w / r});
  }
  return t_reshape(in, t_permute(in, t_reshape(in, x, split, loc), perm, loc), merged, loc);
}

Value t_channel_shuffle(Interp& in, const Value& x, int64_t groups, SourceLoc loc) {
  TensorObj* t = need_tensor(x, "channel_shuffle", loc);
  if (t->rank() < 3) fail(loc, "channel_shuffle expects input to have at least 3 dimensions");
  if (groups <= 0) fail(loc, "channel_shuffle: number of groups to divide channels in must be positive");
  int64_t c = t->shape[1];
  if (c % groups != 0) {
    fail(loc, "channel_shuffle: number of channels " + std::to_string(c) + " must be divisible by groups " +
                  std::to_string(groups));
  }
  std::vector<int64_t> split = {t->shape[0], groups, c / groups};
  split.insert(split.end(), t->shape.begin() + 2, t->shape.end());
  Value y = t_transpose(in, t_reshape(in, x, split, loc), 1, 2, loc);
  return t_reshape(in, y, std::vector<int64_t>(t->shape.begin(), t->shape.end()), loc);
}

Value t_movedim(Interp& in, const Value& x, std::vector<int64_t> source, std::vector<int64_t> destination,
                SourceLoc loc) {
  TensorObj* t = need_tensor(x, "movedim", loc);
  const int rank = t->rank();
  if (source.size() != destination.size()) {
    fail(loc, "movedim: Invalid source or destination dims: source (" + ints_text(source) + " dims) should contain "
              "the same number of dims as destination (" + ints_text(destination) + " dims)");
  }
  std::vector<int64_t> perm(static_cast<size_t>(rank), -1);
  std::vector<bool> used(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < source.size(); ++i) {
    int64_t s = norm_dim(source[i], rank, loc), d = norm_dim(destination[i], rank, loc);
    if (perm[static_cast<size_t>(d)] != -1 || used[static_cast<size_t>(s)]) fail(loc, "movedim: repeated dim");
    perm[static_cast<size_t>(d)] = s;
    used[static_cast<size_t>(s)] = true;
  }
  int64_t next = 0;
  for (int64_t& p : perm) {
    if (p != -1) continue;
    while (used[static_cast<size_t>(next)]) ++next;
    p = next++;
  }
  return t_permute(in, x, perm, loc);
}

}  // namespace tz::tracer
