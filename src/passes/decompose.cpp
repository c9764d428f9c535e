// decompose: composite ops -> primitives, reverse scans written with flips -> reverse scans, and a reduction of
// the same reduction -> one reduction over the union of the axes.
// Each rule is `before => after`.
#include "passes/decompose.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "graph/view.h"
#include "kernel/row_forms.h"
#include "passes/split_reduce.h"

namespace tz {

namespace {

bool is_half(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

// Upcasts a half-precision operand to float32 (composites compute in float32).
const Node* compute_type(Graph& g, const Node* x) { return is_half(x->dtype) ? g.cast(x, DType::Float32) : x; }

const Node* scalar(Graph& g, double v, const Node* like) { return g.constant(v, like->dtype); }

int64_t next_pow2(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// The shape of x without `axes` (or with them as 1 when keepdim).
Shape reduced_shape(const Node* x, const std::vector<int64_t>& axes, bool keepdim) {
  Shape out;
  for (int i = 0; i < x->rank(); ++i) {
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) out.push_back(x->shape[i]);
    else if (keepdim) out.push_back(1);
  }
  return out;
}

// A reduction over non-adjacent axes runs as one reduction per run of adjacent axes, innermost first:
// sum(x, {0, 2}) => sum(sum(x, {2}, keepdim), {0}, keepdim) [then reshape when !keepdim]
// A sum/prod/max/min over axes that all have size 1 is its operand (no kernel reduces one element), cast to the
// reduction's type (a bool or int32 sum or product is int64); reduced, a kernel whose values were all 0-d (a
// [1, 1] tril compared, then .all(1)) had no axis to reduce:
// sum(x[.., 1, ..], {d}) => reshape(x)
const Node* reduce_adjacent(Graph& g, Op op, const Node* x, const std::vector<int64_t>& axes, bool keepdim,
                            SourceLoc loc, std::string str = "") {
  bool unit = op != Op::ArgMax && op != Op::ArgMin;
  for (auto a : axes) unit = unit && x->shape[a] == 1;
  if (unit) {
    bool widen_int = (op == Op::Sum || op == Op::Prod) && (x->dtype == DType::Bool || x->dtype == DType::Int32);
    const Node* y = widen_int ? g.cast(x, DType::Int64, loc) : x;
    return keepdim ? y : g.reshape(y, reduced_shape(x, axes, false), loc);
  }
  bool adjacent = true;
  for (size_t i = 1; i < axes.size(); ++i) adjacent = adjacent && axes[i] == axes[i - 1] + 1;
  if (adjacent) return g.reduce(op, x, axes, keepdim, loc, std::move(str));
  // A 16-bit sum or product accumulates in float32 across the runs and rounds once, as eager does:
  // sum(x_bf16, {0, 2}) => bf16(sum(sum(float(x), {2}, keepdim), {0}, keepdim))
  bool widen = is_half(x->dtype) && (op == Op::Sum || op == Op::Prod);
  const Node* cur = widen ? g.cast(x, DType::Float32, loc) : x;
  size_t end = axes.size();
  while (end > 0) {
    size_t begin = end - 1;
    while (begin > 0 && axes[begin - 1] + 1 == axes[begin]) --begin;
    std::vector<int64_t> run(axes.begin() + begin, axes.begin() + end);
    bool unit_run = true;  // a run over dims of size 1 only reduces nothing (as above)
    for (auto a : run) unit_run = unit_run && x->shape[a] == 1;
    if (!unit_run) cur = g.reduce(op, cur, run, true, loc);
    end = begin;
  }
  if (widen) cur = g.cast(cur, x->dtype, loc);
  if (keepdim) return cur;
  return g.reshape(cur, reduced_shape(x, axes, false), loc);
}

// mean(x, axes) => sum(x, axes) * (1/n)
const Node* lower_mean(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  int64_t n = 1;
  for (auto a : old->attr.ints) n *= x->shape[a];
  const Node* s = reduce_adjacent(g, Op::Sum, xs, old->attr.ints, old->keepdim(), old->loc);
  const Node* m = g.binary(Op::Mul, s, scalar(g, 1.0 / static_cast<double>(n), s), old->loc);
  return g.cast(m, old->dtype, old->loc);
}

// softmax(x, a) => e = exp(x - max(x, a)); e / sum(e, a)
// log_softmax(x, a) => z = x - max(x, a); z - log(sum(exp(z), a))
const Node* lower_softmax(Graph& g, const Node* old, const Node* x, bool log) {
  const Node* xs = compute_type(g, x);
  std::vector<int64_t> axis = {old->attr.ints[0]};
  const Node* m = reduce_adjacent(g, Op::Max, xs, axis, true, old->loc);
  const Node* z = g.binary(Op::Sub, xs, m, old->loc);
  const Node* e = g.unary(Op::Exp, z, old->loc);
  const Node* s = reduce_adjacent(g, Op::Sum, e, axis, true, old->loc);
  const Node* r = log ? g.binary(Op::Sub, z, g.unary(Op::Log, s, old->loc), old->loc)
                      : g.binary(Op::Div, e, s, old->loc);
  return g.cast(r, old->dtype, old->loc);
}

// gelu(x) => 0.5 * x * (1 + erf(x / sqrt(2)))
// gelu(x, tanh) => 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
const Node* lower_gelu(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  auto c = [&](double v) { return scalar(g, v, xs); };
  const Node* inner;
  if (old->attr.str == "tanh") {
    const Node* cube = g.binary(Op::Mul, g.binary(Op::Mul, xs, xs), xs);
    const Node* arg = g.binary(Op::Mul, c(std::sqrt(2.0 / M_PI)), g.binary(Op::Add, xs, g.binary(Op::Mul, c(0.044715), cube)));
    inner = g.unary(Op::Tanh, arg, old->loc);
  } else {
    inner = g.unary(Op::Erf, g.binary(Op::Mul, xs, c(M_SQRT1_2)), old->loc);
  }
  const Node* r = g.binary(Op::Mul, g.binary(Op::Mul, c(0.5), xs), g.binary(Op::Add, c(1.0), inner), old->loc);
  return g.cast(r, old->dtype, old->loc);
}

// silu(x) => x * sigmoid(x)
const Node* lower_silu(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  return g.cast(g.binary(Op::Mul, xs, g.unary(Op::Sigmoid, xs, old->loc), old->loc), old->dtype, old->loc);
}

// leaky_relu(x, s) => where(x > 0, x, x * s)
const Node* lower_leaky_relu(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  const Node* pos = g.binary(Op::Gt, xs, scalar(g, 0.0, xs), old->loc);
  const Node* r = g.where(pos, xs, g.binary(Op::Mul, xs, scalar(g, old->attr.floats[0], xs)), old->loc);
  return g.cast(r, old->dtype, old->loc);
}

// elu(x, alpha, scale, input_scale) => where(x > 0, x * scale, expm1(x * input_scale) * (alpha * scale))
// (PyTorch's one kernel for elu, selu and celu, in its order of operations; exp(x) - 1 would lose the digits of a
// small x, and a bf16 chain amplifies one fp32 ulp into a flipped rounding.)
const Node* lower_elu(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  auto c = [&](double v) { return scalar(g, v, xs); };
  double alpha = old->attr.floats[0], scale = old->attr.floats[1], input_scale = old->attr.floats[2];
  const Node* pos = g.binary(Op::Gt, xs, c(0.0), old->loc);
  const Node* arg = input_scale == 1.0 ? xs : g.binary(Op::Mul, xs, c(input_scale));
  const Node* neg = g.binary(Op::Mul, g.unary(Op::Expm1, arg, old->loc), c(alpha * scale));
  const Node* lin = scale == 1.0 ? xs : g.binary(Op::Mul, xs, c(scale));
  return g.cast(g.where(pos, lin, neg, old->loc), old->dtype, old->loc);
}

// relu6(x + 3) = min(max(x + 3, 0), 6), the numerator of hardsigmoid and hardswish
const Node* relu6_plus_3(Graph& g, const Node* xs) {
  auto c = [&](double v) { return scalar(g, v, xs); };
  return g.binary(Op::Minimum, g.binary(Op::Maximum, g.binary(Op::Add, xs, c(3.0)), c(0.0)), c(6.0));
}

// hardsigmoid(x) => sixth(min(max(x + 3, 0), 6))
// (sixth: * float32(1/6) on CUDA, / 6 on the CPU, as ATen's two kernels compute it)
const Node* lower_hardsigmoid(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  return g.cast(g.unary(Op::Sixth, relu6_plus_3(g, xs), old->loc), old->dtype, old->loc);
}

// hardswish(x) => sixth(x * min(max(x + 3, 0), 6))
const Node* lower_hardswish(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  const Node* r = g.unary(Op::Sixth, g.binary(Op::Mul, xs, relu6_plus_3(g, xs), old->loc), old->loc);
  return g.cast(r, old->dtype, old->loc);
}

// log(1 + exp(z)) without overflow: max(z, 0) + log(1 + exp(-|z|)). Triton's interpreter has no log1p; the
// rounding of 1 + exp(-|z|) costs at most ~6e-8 absolute, far inside the 1e-4 tolerance.
const Node* softplus_of(Graph& g, const Node* z, SourceLoc loc) {
  const Node* zero = scalar(g, 0.0, z);
  const Node* e = g.unary(Op::Exp, g.unary(Op::Neg, g.unary(Op::Abs, z, loc), loc), loc);
  const Node* l = g.unary(Op::Log, g.binary(Op::Add, scalar(g, 1.0, z), e), loc);
  return g.binary(Op::Add, g.binary(Op::Maximum, z, zero), l, loc);
}

// softplus(x, beta, threshold) => where(beta * x > threshold, x, log(1 + exp(beta * x)) / beta)
const Node* lower_softplus(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  double beta = old->attr.floats[0], threshold = old->attr.floats[1];
  const Node* z = beta == 1.0 ? xs : g.binary(Op::Mul, xs, scalar(g, beta, xs));
  const Node* sp = softplus_of(g, z, old->loc);
  if (beta != 1.0) sp = g.binary(Op::Div, sp, scalar(g, beta, xs));
  const Node* big = g.binary(Op::Gt, z, scalar(g, threshold, xs), old->loc);
  return g.cast(g.where(big, xs, sp, old->loc), old->dtype, old->loc);
}

// softsign(x) => x / (1 + |x|)
const Node* lower_softsign(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  const Node* d = g.binary(Op::Add, scalar(g, 1.0, xs), g.unary(Op::Abs, xs, old->loc));
  return g.cast(g.binary(Op::Div, xs, d, old->loc), old->dtype, old->loc);
}

// mish(x) => x * tanh(log(1 + exp(x)))   (PyTorch's mish has no threshold)
const Node* lower_mish(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  const Node* t = g.unary(Op::Tanh, softplus_of(g, xs, old->loc), old->loc);
  return g.cast(g.binary(Op::Mul, xs, t, old->loc), old->dtype, old->loc);
}

// log_sigmoid(x) => min(x, 0) - log1p(exp(-|x|))   (ATen's log_sigmoid kernels, CPU and CUDA alike)
const Node* lower_log_sigmoid(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  const Node* z = g.unary(Op::Exp, g.unary(Op::Neg, g.unary(Op::Abs, xs, old->loc), old->loc), old->loc);
  const Node* m = g.binary(Op::Minimum, xs, scalar(g, 0.0, xs), old->loc);
  return g.cast(g.binary(Op::Sub, m, g.unary(Op::Log1p, z, old->loc), old->loc), old->dtype, old->loc);
}

struct Moments {
  const Node* mean;
  const Node* var;
};
Moments moments(Graph& g, const Node* x, const std::vector<int64_t>& axes, SourceLoc loc);

// Two passes over the row, as PyTorch does (never E[x^2] - E[x]^2, which cancels):
// layer_norm(x, axes, eps) => d = x - mean(x, axes); d * rsqrt(mean(d * d, axes) + eps)
const Node* lower_layer_norm(Graph& g, const Node* old, const Node* x) {
  const Node* xs = compute_type(g, x);
  const std::vector<int64_t>& axes = old->attr.ints;
  int64_t n = 1;
  for (auto a : axes) n *= x->shape[a];
  const Node* inv_n = scalar(g, 1.0 / static_cast<double>(n), xs);
  auto mean = [&](const Node* v) {
    return g.binary(Op::Mul, reduce_adjacent(g, Op::Sum, v, axes, true, old->loc), inv_n, old->loc);
  };
  const Node* d = nullptr;
  const Node* var = nullptr;
  if (!split_reduce_splits(numel(x->shape) / n, n)) {
    d = g.binary(Op::Sub, xs, mean(xs), old->loc);
    var = mean(g.binary(Op::Mul, d, d, old->loc));
  } else {
    // Few long rows, which split_reduce cuts into partial sums in another kernel: d, read by the sum of squares
    // and by the output, was materialized in fp32 between them (a per-sample layer norm of fp16 [128, 48, 97,
    // 673] moved 8 GB, the floor 2.4 GB). The normalisation statistics instead, chunked (one read of x, whose
    // chunks share the kernel of any other reduction of x over them); then d is the output's alone:
    //   layer_norm(x) => (x - norm_mean(x)) * rsqrt(norm_var(x) + eps)
    Moments m = moments(g, x, axes, old->loc);
    d = g.binary(Op::Sub, xs, m.mean, old->loc);
    var = m.var;
  }
  const Node* r = g.unary(Op::Rsqrt, g.binary(Op::Add, var, scalar(g, old->attr.floats[0], xs)), old->loc);
  return g.cast(g.binary(Op::Mul, d, r, old->loc), old->dtype, old->loc);
}

// Mean and biased variance over any set of axes (normalisation statistics), in float32, keepdim.
// Reduced axes that form one run are reduced in place: as rows when they are innermost, else as columns (the
// kept inner dims along the tile, e.g. BatchNorm1d over [N, C]). Otherwise the kept axes move to the front
// (a free permute, BatchNorm2d's [N, C, H, W] -> [C, N, H, W]) and the rows follow. A run that fits in one
// register tile is reduced in two passes over registers:
//   norm_mean(x), norm_var(x) => m = sum(v) / n; d = v - m; sum(d * d) / n
// So is a run of rows that the reduction kernel holds whole anyway (below). A longer run is cut into chunks that
// fit (splitting one dim of the view, so chunks stay strided views of x); each chunk gets its own two-pass mean
// and sum of squares, and the chunks are combined exactly (Chan):
//   => m_p = sum(chunk) / c; q_p = sum((chunk - m_p)^2)          one program per chunk: one read of x
//      m = sum(m_p) / P; var = sum(q_p + c * (m_p - m)^2) / n     over the P partials
// so long runs (BatchNorm over N and H*W, GroupNorm over big groups) are spread over many programs.
constexpr int64_t kTile = 16384;  // the persistent reduction tile of lower_reduction, in elements
// Chunks shorter than kTile / kMinChunkFraction are not worth their partials (two floats per chunk); 512-element
// rows are, as the 673-element rows of a per-sample layer norm over [48, 97, 673] (97 prime: no larger chunk)
// whose partial moments come from the kernel of a layer norm over those rows.
constexpr int64_t kMinChunkFraction = 32;

// Whether lower_reduction will reduce v's run [lo, hi) as columns, judged by v's layout in memory when v is a
// view of a tensor in memory: it tiles by strides, not by the logical order. A run that no dim of stride 1 walks,
// while a kept dim of stride 1 does, is reduced as columns of that dim (F.batch_norm of an NHWC tensor permuted
// to NCHW: v = [C, N, H, W], logically rows of N * H * W, in memory columns of C; instance norm over the length
// of x.transpose(1, 2)); a run walked at stride 1 is rows wherever it sits. Returns the column count (the kept
// dim's size), 0 for rows, -1 when the layout is not known (v computed, or no dim of stride 1).
int64_t layout_columns(const Node* v, int lo, int hi) {
  std::vector<int64_t> st;
  if (!view_strides(v, st)) return -1;
  for (int d = lo; d < hi; ++d) {
    if (std::abs(st[d]) == 1 && v->shape[d] > 1) return 0;
  }
  for (int d = 0; d < v->rank(); ++d) {
    if ((d < lo || d >= hi) && std::abs(st[d]) == 1 && v->shape[d] > 1) return v->shape[d];
  }
  return -1;
}

Moments moments(Graph& g, const Node* x, const std::vector<int64_t>& axes, SourceLoc loc) {
  int rank = x->rank();
  bool adjacent = true;
  for (size_t i = 1; i < axes.size(); ++i) adjacent = adjacent && axes[i] == axes[i - 1] + 1;
  const Node* v = x;
  int lo = static_cast<int>(axes.front()), hi = static_cast<int>(axes.back()) + 1;  // the run [lo, hi) of v
  if (!adjacent) {
    std::vector<int64_t> perm;
    for (int d = 0; d < rank; ++d) {
      if (std::find(axes.begin(), axes.end(), d) == axes.end()) perm.push_back(d);
    }
    lo = static_cast<int>(perm.size());
    hi = rank;
    for (auto a : axes) perm.push_back(a);
    v = g.permute(x, perm, loc);
  }
  Shape out = x->shape;
  for (auto a : axes) out[a] = 1;
  int64_t n = 1, inner_kept = 1;
  for (int d = lo; d < hi; ++d) n *= v->shape[d];
  for (int d = hi; d < rank; ++d) inner_kept *= v->shape[d];
  // Columns hold up to 64 kept elements per tile (lower_reduction's BLOCK_I), rows the whole tile.
  int64_t columns = hi == rank ? 0 : inner_kept;
  int64_t laid_out = layout_columns(v, lo, hi);
  if (laid_out >= 0 && (laid_out == 0) != (columns == 0)) columns = laid_out;  // (where the layout disagrees)
  int64_t limit = columns == 0 ? kTile : kTile / std::min<int64_t>(64, next_pow2(columns));
  auto c = [&](double value) { return g.constant(value, DType::Float32); };
  auto sum = [&](const Node* t, int from, int to) {
    std::vector<int64_t> red;
    for (int d = from; d < to; ++d) red.push_back(d);
    return g.reduce(Op::Sum, t, red, true, loc);
  };

  // The innermost dims of the run that fit in one chunk whole, then the dim to split (by q).
  int split = hi - 1;
  int64_t inner = 1;
  while (split >= lo && inner * v->shape[split] <= limit) inner *= v->shape[split--];
  int64_t q = 1;
  if (split >= lo) {
    for (int64_t cand = limit / inner; cand >= 1; --cand) {
      if (v->shape[split] % cand == 0) {
        q = cand;
        break;
      }
    }
  }
  // Rows that the reduction kernel holds whole in registers although its kernel reads them twice
  // (kernel/row_forms.h), with enough rows that split_reduce leaves them whole, are reduced directly: the
  // statistics and the normalised output share one kernel and one read of x. Chunked, the output's pass read x
  // a second time (group norm of fp32 [256, 256, 64, 64] in 32 groups: 1.5x the problem's bytes, 64% of the
  // bandwidth floor on the H200; a layer norm of [4096, 32768] held on 32 warps reached 93%). Rows long enough
  // for cooperative rows stay chunked: the one cooperative norm measured (norm_layernorm_chw_affine, rows of
  // 207936, two exchanges) ran at 47% of the floor, below the chunked norms' 55-64%.
  int64_t rows = numel(x->shape) / n;
  bool read_once = columns == 0 && !split_reduce_splits(rows, n) && next_pow2(n) <= kHeldRowMax;
  if (read_once || split < lo || inner * q < limit / kMinChunkFraction) {
    const Node* vs = compute_type(g, v);
    const Node* mean = g.binary(Op::Mul, sum(vs, lo, hi), c(1.0 / static_cast<double>(n)), loc);
    const Node* d = g.binary(Op::Sub, vs, mean, loc);
    const Node* var =
        g.binary(Op::Mul, sum(g.binary(Op::Mul, d, d, loc), lo, hi), c(1.0 / static_cast<double>(n)), loc);
    return {g.reshape(mean, out, loc), g.reshape(var, out, loc)};
  }
  // v2 = v with dim `split` cut into [size / q, q]; the chunk is v2's dims [first, end), the parts [lo, first).
  Shape s2(v->shape.begin(), v->shape.begin() + split);
  s2.push_back(v->shape[split] / q);
  if (q > 1) s2.push_back(q);
  int first = split + (q > 1 ? 1 : 1);
  if (q == 1) first = split + 1;
  int shift = q > 1 ? 1 : 0;
  for (int d = split + 1; d < rank; ++d) s2.push_back(v->shape[d]);
  int end = hi + shift;
  const Node* v2 = compute_type(g, g.reshape(v, s2, loc));
  int64_t chunk = inner * q;
  const Node* part_mean = g.binary(Op::Mul, sum(v2, first, end), c(1.0 / static_cast<double>(chunk)), loc);
  const Node* d = g.binary(Op::Sub, v2, part_mean, loc);
  const Node* part_sq = sum(g.binary(Op::Mul, d, d, loc), first, end);
  Shape ps(s2.begin(), s2.begin() + first);  // [kept..., parts..., inner kept...]
  ps.insert(ps.end(), s2.begin() + end, s2.end());
  int64_t parts = 1;
  for (int i = lo; i < first; ++i) parts *= ps[i];
  const Node* pm = g.reshape(part_mean, ps, loc);
  const Node* pq = g.reshape(part_sq, ps, loc);
  const Node* mean = g.binary(Op::Mul, sum(pm, lo, first), c(1.0 / static_cast<double>(parts)), loc);
  const Node* dm = g.binary(Op::Sub, pm, mean, loc);
  const Node* spread =
      g.binary(Op::Add, pq, g.binary(Op::Mul, g.binary(Op::Mul, dm, dm, loc), c(static_cast<double>(chunk))), loc);
  const Node* var = g.binary(Op::Mul, sum(spread, lo, first), c(1.0 / static_cast<double>(n)), loc);
  return {g.reshape(mean, out, loc), g.reshape(var, out, loc)};
}

// A matrix-vector product is memory-bound: a multiply and a sum fuse into one reduction kernel. The sum is a
// "dot" sum (ops.def): accumulated in plain fp32, as cuBLAS accumulates the product it replaces.
// matmul(a[..., M, K], b[..., K, 1]) => sum(a * b^T[..., 1, K], -1, keepdim)
// matmul(a[..., 1, K], b[..., K, N]) => sum(a^T[..., K, 1] * b, -2, keepdim)
const Node* lower_matvec(Graph& g, const Node* old, const Node* a, const Node* b) {
  int ra = a->rank(), rb = b->rank();
  int64_t m = a->shape[ra - 2], n = b->shape[rb - 1];
  if (n == 1) {
    std::vector<int64_t> perm(rb);
    for (int i = 0; i < rb; ++i) perm[i] = i;
    std::swap(perm[rb - 1], perm[rb - 2]);
    const Node* prod = g.binary(Op::Mul, a, g.permute(b, perm, old->loc), old->loc);
    return reduce_adjacent(g, Op::Sum, prod, {prod->rank() - 1}, true, old->loc, "dot");
  }
  (void)m;
  std::vector<int64_t> perm(ra);
  for (int i = 0; i < ra; ++i) perm[i] = i;
  std::swap(perm[ra - 1], perm[ra - 2]);
  const Node* prod = g.binary(Op::Mul, g.permute(a, perm, old->loc), b, old->loc);
  return reduce_adjacent(g, Op::Sum, prod, {prod->rank() - 2}, true, old->loc, "dot");
}

// Global pooling is a reduction over the pooled dims (the reduction kernel tiles it far better than windows):
// max_pool(x) with one window covering each pooled dim => max(x, pooled, keepdim)
// avg_pool(x) likewise => sum(x, pooled, keepdim) * (1 / (window size or divisor_override))
// An adaptive pool whose windows all have one size is a plain pool:
// adaptive_*_pool(x) with In % Out == 0 in every pooled dim => *_pool(x, kernel = stride = In / Out)
const Node* lower_pool(Graph& g, const Node* old, const Node* x) {
  int dims = pooled_dims(old), lead = old->rank() - dims;
  bool adaptive = old->op == Op::AdaptiveMaxPool || old->op == Op::AdaptiveAvgPool;
  bool max = old->op == Op::MaxPool || old->op == Op::AdaptiveMaxPool;
  bool global = true, even = true;
  int64_t window = 1;
  std::vector<int64_t> axes;
  for (int j = 0; j < dims; ++j) {
    int64_t in = x->shape[lead + j], out = old->shape[lead + j];
    axes.push_back(lead + j);
    window *= in;
    if (adaptive) {
      global = global && out == 1;
      even = even && in % out == 0;
    } else {
      const int64_t* kspd = &old->attr.ints[4 * j];  // kernel, stride, padding, dilation
      global = global && out == 1 && kspd[0] == in && kspd[2] == 0 && kspd[3] == 1;
    }
  }
  if (global && old->attr.str != "indices") {  // (an argmax over several dims stays a window kernel)
    const Node* xs = compute_type(g, x);
    if (max) return g.cast(g.reduce(Op::Max, xs, axes, true, old->loc), old->dtype, old->loc);
    double divisor = !adaptive && old->attr.floats[1] != 0 ? old->attr.floats[1] : static_cast<double>(window);
    const Node* s = g.reduce(Op::Sum, xs, axes, true, old->loc);
    return g.cast(g.binary(Op::Mul, s, scalar(g, 1.0 / divisor, s), old->loc), old->dtype, old->loc);
  }
  if (adaptive && even) {
    Attr a;
    for (int j = 0; j < dims; ++j) {
      int64_t k = x->shape[lead + j] / old->shape[lead + j];
      for (int64_t v : {k, k, int64_t{0}, int64_t{1}}) a.ints.push_back(v);
    }
    if (!max) a.floats = {1.0, 0.0};
    a.str = old->attr.str;
    return g.make(max ? Op::MaxPool : Op::AvgPool, old->dtype, old->shape, {x}, a, old->loc);
  }
  return rebuild(g, old, {x});
}

// A reverse scan, as PyTorch code spells it (a scan of the reversed input, reversed back):
// flip(cumsum(flip(x, {d}), d), {d}) => cumsum(x, d, reverse)   (likewise cumprod)
const Node* fold_reverse_scan(Graph& g, const Node* old, const Node* x) {
  const std::vector<int64_t>& dims = old->attr.ints;
  if (op_kind(x->op) == OpKind::Scan && dims.size() == 1 && dims[0] == x->attr.ints[0] &&
      x->src[0]->op == Op::Flip && x->src[0]->attr.ints == dims) {
    return g.scan(x->op, x->src[0]->src[0], dims[0], x->attr.ints[1] == 0, old->loc);
  }
  return g.flip(x, dims, old->loc);
}

// A reduction whose only operand is the same reduction over other axes is one reduction over the union of the
// axes, so the input is read once and the reduction can share a kernel with others over those axes (a sum of x
// over {1, 2} beside a min of x over {2} then {1}: one read of x instead of two):
// min(min(x, A, kA), B, kB) => min(x, A u B') [reshaped to the outer result's shape]   (B' = B in x's dims)
// Exact for max/min (NaN anywhere in the union gives NaN either way) and for integer sums and products
// (wrapping arithmetic is associative); a float32/float64 sum or product is one accumulation instead of
// two (no rounding of the intermediate: at least as accurate), and a mean of a mean is the mean of the union
// exactly (every inner mean averages the same count). 16-bit sums, products and means are left alone: eager
// rounds (and can overflow) the intermediate in the 16-bit type, which one fp32 accumulation would not.
// Not merged when the inner reduction has another user (it is computed anyway, and the outer reads its small
// result), or when x has another reduction over the inner's axes (an argmin beside the min, a sum beside it:
// the inner reduction shares that kernel's read of x; merged, it would read x again).
class NestedReductions {
 public:
  explicit NestedReductions(const Graph& g) : uses_(g.nodes().size(), 0), readers_(g.nodes().size()) {
    std::vector<char> live = live_nodes(g);
    for (const auto& n : g.nodes()) {
      if (!live[n->id]) continue;
      for (const Node* s : n->src) {
        ++uses_[s->id];
        readers_[s->id].push_back(n.get());
      }
    }
    for (const Node* o : g.outputs) ++uses_[o->id];
    for (const auto& u : g.updates) ++uses_[u.value->id];
  }

  const Node* rewrite(Graph& out, const Node* old, const std::vector<const Node*>& src) const {
    const Node* inner = old->src.empty() ? nullptr : old->src[0];
    if (!mergeable(old) || inner->op != old->op || !mergeable(inner) || uses_[inner->id] != 1) {
      return rebuild(out, old, src);
    }
    if (is_half(old->dtype) && old->op != Op::Max && old->op != Op::Min) return rebuild(out, old, src);
    for (const Node* r : readers_[inner->src[0]->id]) {
      bool reduces = op_kind(r->op) == OpKind::Reduce || r->op == Op::Mean;
      if (r != inner && reduces && r->attr.ints == inner->attr.ints) return rebuild(out, old, src);
    }
    // The inner reduction as rewritten (merged itself when it was the outer one of a chain): reduce(op, x, a).
    const Node* ni = src[0];
    if (ni->op != old->op || !mergeable(ni)) return rebuild(out, old, src);
    const Node* x = ni->src[0];
    const std::vector<int64_t>& a = ni->attr.ints;
    // The outer axes in x's dims: without keepdim, the inner result's dims are x's unreduced dims in order.
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < x->rank(); ++d) {
      if (ni->keepdim() || std::find(a.begin(), a.end(), d) == a.end()) kept.push_back(d);
    }
    std::vector<int64_t> axes = a;
    for (int64_t b : old->attr.ints) {
      if (std::find(axes.begin(), axes.end(), kept[b]) == axes.end()) axes.push_back(kept[b]);
    }
    bool keep = ni->keepdim() == old->keepdim() ? old->keepdim() : true;
    const Node* r = out.reduce(old->op, x, axes, keep, old->loc);
    if (r->dtype != old->dtype) return rebuild(out, old, src);
    return r->shape == old->shape ? r : out.reshape(r, old->shape, old->loc);
  }

 private:
  static bool mergeable(const Node* n) {
    bool op = n->op == Op::Sum || n->op == Op::Prod || n->op == Op::Max || n->op == Op::Min || n->op == Op::Mean;
    return op && n->attr.str.empty() && n->src.size() == 1;
  }

  std::vector<int> uses_;
  std::vector<std::vector<const Node*>> readers_;
};

}  // namespace

std::unique_ptr<Graph> decompose(const Graph& traced) {
  // Nested reductions merge first, on the graph as traced (a mean is still a mean there).
  NestedReductions nested(traced);
  std::unique_ptr<Graph> merged =
      rewrite_graph(traced, [&](Graph& out, const Node* old, const std::vector<const Node*>& src) {
        return nested.rewrite(out, old, src);
      });
  const Graph& g = *merged;
  return rewrite_graph(g, [&](Graph& out, const Node* old, const std::vector<const Node*>& src) -> const Node* {
    switch (old->op) {
      case Op::Mean: return lower_mean(out, old, src[0]);
      case Op::Softmax: return lower_softmax(out, old, src[0], false);
      case Op::LogSoftmax: return lower_softmax(out, old, src[0], true);
      case Op::Gelu: return lower_gelu(out, old, src[0]);
      case Op::Silu: return lower_silu(out, old, src[0]);
      case Op::LeakyRelu: return lower_leaky_relu(out, old, src[0]);
      case Op::Elu: return lower_elu(out, old, src[0]);
      case Op::Hardsigmoid: return lower_hardsigmoid(out, old, src[0]);
      case Op::Hardswish: return lower_hardswish(out, old, src[0]);
      case Op::Softplus: return lower_softplus(out, old, src[0]);
      case Op::Softsign: return lower_softsign(out, old, src[0]);
      case Op::Mish: return lower_mish(out, old, src[0]);
      case Op::LogSigmoid: return lower_log_sigmoid(out, old, src[0]);
      case Op::LayerNorm: return lower_layer_norm(out, old, src[0]);
      case Op::NormMean: return moments(out, src[0], old->attr.ints, old->loc).mean;
      case Op::NormVar: return moments(out, src[0], old->attr.ints, old->loc).var;
      case Op::MaxPool:
      case Op::AvgPool:
      case Op::AdaptiveMaxPool:
      case Op::AdaptiveAvgPool: return lower_pool(out, old, src[0]);
      case Op::Diag:
        throw UserError(old->loc,
                        "torch.diag(v) is only supported as an operand of a matrix product (diag(v) @ m or m @ "
                        "diag(v), computed as a row or column scale): an N x N diagonal matrix is never built");
      case Op::Sum:
      case Op::Prod:
      case Op::Max:
      case Op::Min: return reduce_adjacent(out, old->op, src[0], old->attr.ints, old->keepdim(), old->loc);
      case Op::ArgMax:
      case Op::ArgMin: {
        // argmax(x[.., 1, ..], {d}) => int64(x < x), reshaped: index 0 (NaN included), no reduction kernel
        bool unit = true;
        for (auto a : old->attr.ints) unit = unit && src[0]->shape[a] == 1;
        if (!unit) return rebuild(out, old, src);
        const Node* zero = out.cast(out.binary(Op::Lt, src[0], src[0], old->loc), DType::Int64, old->loc);
        return old->shape == zero->shape ? zero : out.reshape(zero, old->shape, old->loc);
      }
      case Op::Matmul: {
        int64_t m = old->shape[old->rank() - 2], n = old->shape.back();
        if (m == 1 || n == 1) return lower_matvec(out, old, src[0], src[1]);
        return rebuild(out, old, src);
      }
      case Op::Input: return out.input(static_cast<int>(old->attr.ints[0]));
      case Op::Flip: return fold_reverse_scan(out, old, src[0]);
      default: return rebuild(out, old, src);
    }
  });
}

}  // namespace tz
