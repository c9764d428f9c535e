// Tensor operations with PyTorch's shape and dtype rules. Each checks what the user can get wrong (shapes
// that do not broadcast, dims out of range, ...) with a located error, then builds graph nodes when the
// operands are traced forward tensors, or computes the result's shape and dtype only (get_inputs, __init__:
// the caller attaches the replay expression).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "trace/interp.h"

namespace tz::tracer {

// The tensor an argument must be, with a located error naming `what` otherwise.
TensorObj* need_tensor(const Value& v, const std::string& what, SourceLoc loc);
int64_t norm_dim(int64_t dim, int rank, SourceLoc loc);  // negative dims wrap; out of range is an error
// A located error for negative sizes, or more elements than 64-bit arithmetic on them can count.
void check_shape(const Shape& shape, SourceLoc loc);

Value t_unary(Interp& in, Op op, const Value& x, SourceLoc loc);  // float math on ints computes in float32
Value t_binary(Interp& in, Op op, const Value& a, const Value& b, SourceLoc loc);  // a or b may be a scalar
DType common_dtype(const Value& a, const Value& b);  // the dtype two operands compute in (one a tensor)
Value t_where(Interp& in, const Value& cond, const Value& a, const Value& b, SourceLoc loc);
Value t_clamp(Interp& in, const Value& x, const Value& lo, const Value& hi, SourceLoc loc);
Value t_cast(Interp& in, const Value& x, DType to, SourceLoc loc);
// torch.diag: a diagonal matrix from a vector (forward: only diagonal 0, and only for a matmul operand).
Value t_diag(Interp& in, const Value& x, int64_t diagonal, SourceLoc loc);
// torch.tril (upper = false) / torch.triu of a forward tensor: zeros outside the band of the last two dims.
Value t_tri(Interp& in, const Value& x, int64_t diagonal, bool upper, SourceLoc loc);

// dims: nullopt = all. Sum/Prod/Max/Min/Mean/ArgMax/ArgMin.
Value t_reduce(Interp& in, Op op, const Value& x, std::optional<std::vector<int64_t>> dims, bool keepdim,
               SourceLoc loc);
Value t_arg_reduce(Interp& in, Op op, const Value& x, std::optional<int64_t> dim, bool keepdim, SourceLoc loc);
// cumsum / cumprod along `dim` (Op::Cumsum / Op::Cumprod); integer and bool inputs give int64.
Value t_scan(Interp& in, Op op, const Value& x, int64_t dim, SourceLoc loc);
Value t_softmax(Interp& in, Op op, const Value& x, int64_t dim, SourceLoc loc);  // Softmax / LogSoftmax
Value t_gelu(Interp& in, const Value& x, const std::string& approximate, SourceLoc loc);
Value t_silu(Interp& in, const Value& x, SourceLoc loc);
// A pointwise composite activation (LeakyRelu, Elu, Softplus, ...) of a floating tensor, options in `attr`.
Value t_activation(Interp& in, Op op, const Value& x, Attr attr, SourceLoc loc);

// The activations with scalar options, spelled F.<function>(input, options..., inplace=) and
// nn.<module>(options..., inplace=); a module keeps its options as attributes of the same names.
struct ActivationSpec {
  const char* function;  // "leaky_relu"
  const char* module;    // "LeakyReLU"
  std::vector<std::pair<const char*, double>> options;  // name and default, in PyTorch's argument order
  bool inplace;          // takes inplace=
};
const std::vector<ActivationSpec>& activation_specs();
const ActivationSpec* find_activation_module(const std::string& module);
// `opts` holds one value per option of the spec; checks them (e.g. hardtanh's min_val <= max_val).
Value t_named_activation(Interp& in, const ActivationSpec& spec, const Value& x, const std::vector<double>& opts,
                         SourceLoc loc);

// layer_norm over the trailing dims `normalized_shape`, then `* weight + bias` when given; half inputs
// normalise and apply the affine in float32 and round once, as PyTorch does.
// torch.var / torch.std (std_dev) over dims (all when none), with PyTorch's correction (1: unbiased).
Value t_var(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims, double correction, bool keepdim,
            bool std_dev, SourceLoc loc);
// torch.var_mean / torch.std_mean: (var or std, mean), both from one pass.
std::pair<Value, Value> t_var_mean(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims,
                                   double correction, bool keepdim, bool std_dev, SourceLoc loc);
// F.prelu(x, weight): x > 0 ? x : weight * x, the weight (one value or one per channel, dim 1) in x's type.
Value t_prelu(Interp& in, const Value& x, const Value& weight, SourceLoc loc);
// F.glu(x, dim): first half * sigmoid(second half) along dim.
Value t_glu(Interp& in, const Value& x, int64_t dim, SourceLoc loc);
// torch.logsumexp over dims (all when none or empty).
Value t_logsumexp(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims, bool keepdim, SourceLoc loc);
Value t_layer_norm(Interp& in, const Value& x, const std::vector<int64_t>& normalized_shape, const Value& weight,
                   const Value& bias, double eps, SourceLoc loc);

// batch_norm as F.batch_norm computes it: in training mode with the batch statistics over every dim but 1
// (and, when running_mean/var are given, their in-place update with `momentum`, a float or a 0-d tensor;
// the variance unbiased), else with the running statistics; then `* weight + bias` per channel.
Value t_batch_norm(Interp& in, const Value& x, const Value& running_mean, const Value& running_var,
                   const Value& weight, const Value& bias, bool training, const Value& momentum, double eps,
                   SourceLoc loc);
// group_norm over (C / groups, spatial) per sample and group; instance norm is groups = C.
Value t_group_norm(Interp& in, const Value& x, int64_t groups, const Value& weight, const Value& bias, double eps,
                   const std::string& what, SourceLoc loc);
// rms_norm over the trailing dims `normalized_shape`, then `* weight` when given, in float32 and rounded once;
// eps nullopt = float32's machine epsilon (as PyTorch, whatever the input type).
Value t_rms_norm(Interp& in, const Value& x, const std::vector<int64_t>& normalized_shape, const Value& weight,
                 std::optional<double> eps, SourceLoc loc);
// The p-norm over `dims` (all when nullopt): p = 2 (also Frobenius), 1, +-inf, or any p > 0.
Value t_norm(Interp& in, const Value& x, double p, std::optional<std::vector<int64_t>> dims, bool keepdim,
             const std::string& what, SourceLoc loc);
// After forward, the module buffer `buffer` (a forward tensor read from the module) holds `value`.
void t_update_buffer(Interp& in, const Value& buffer, const Value& value, const std::string& what, SourceLoc loc);

Value t_reshape(Interp& in, const Value& x, std::vector<int64_t> sizes, SourceLoc loc);  // one -1 allowed
Value t_permute(Interp& in, const Value& x, std::vector<int64_t> perm, SourceLoc loc);
Value t_transpose(Interp& in, const Value& x, int64_t a, int64_t b, SourceLoc loc);
Value t_expand(Interp& in, const Value& x, std::vector<int64_t> sizes, SourceLoc loc);  // -1 keeps a dim
Value t_unsqueeze(Interp& in, const Value& x, int64_t dim, SourceLoc loc);
Value t_squeeze(Interp& in, const Value& x, std::optional<std::vector<int64_t>> dims, SourceLoc loc);
Value t_flatten(Interp& in, const Value& x, int64_t start, int64_t end, SourceLoc loc);
Value t_index(Interp& in, const Value& x, const Value& index, SourceLoc loc);  // x[None, 1:, 0, ...]
// Index remaps that move no data (views in the graph): flip, and slices with Python's clamping rules
// (start/stop nullopt = the ends; step > 0). select drops the dim; narrow checks its range.
Value t_flip(Interp& in, const Value& x, std::vector<int64_t> dims, SourceLoc loc);
Value t_slice(Interp& in, const Value& x, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop,
              int64_t step, SourceLoc loc);
Value t_narrow(Interp& in, const Value& x, int64_t dim, int64_t start, int64_t length, SourceLoc loc);
Value t_select(Interp& in, const Value& x, int64_t dim, int64_t index, SourceLoc loc);
// Indexed reads, all one graph op (ops.def: gather). Indices are int64 (int32 where PyTorch takes it) and are
// not checked against the size: out of range is undefined, as in eager CUDA.
// torch.gather: out[i] = x[i with i[dim] replaced by index[i]], shaped like index (one rank; index.size(d) <=
// x.size(d) for d != dim).
Value t_gather(Interp& in, const Value& x, int64_t dim, const Value& index, const std::string& name, SourceLoc loc);
// The slices of x along `dim` at the positions an integer tensor of any rank holds: [*x[:dim], *index.shape,
// *x[dim+1:]] (index_select, F.embedding, x[idx]); `wrap`: negative indices count from the end (x[idx] does).
Value t_take(Interp& in, const Value& x, int64_t dim, const Value& index, bool wrap, const std::string& name,
             SourceLoc loc);
// torch.take_along_dim: x and indices broadcast against each other except along dim, then gathered; without a
// dim, the flattened x at the flattened indices.
Value t_take_along_dim(Interp& in, const Value& x, const Value& indices, std::optional<int64_t> dim, SourceLoc loc);
// F.embedding(input, weight): weight's rows at the indices, [*input.shape, embedding_dim].
Value t_embedding(Interp& in, const Value& input, const Value& weight, const std::string& name, SourceLoc loc);
// F.embedding / nn.Embedding options refused with a located error: max_norm (forward renormalizes the rows it
// reads, in the weight itself) and sparse=True (sparse gradients).
void check_embedding_options(bool max_norm, bool sparse, const std::string& name, SourceLoc loc);
// torch.cat (stack = false) and torch.stack in forward: each part padded with zeros to the result's extent
// along `dim`, the pads added (or'ed for bool); the parts promote to one dtype.
Value t_cat(Interp& in, const std::vector<Value>& parts, int64_t dim, bool stack, const std::string& name,
            SourceLoc loc);

Value t_matmul(Interp& in, const Value& a, const Value& b, SourceLoc loc, const char* fname = "matmul");
// torch.einsum of one or two operands (no ellipsis, no repeated subscript in one operand).
Value t_einsum(Interp& in, const std::string& equation, const std::vector<Value>& operands, SourceLoc loc);
Value t_linear(Interp& in, const Value& x, const Value& w, const Value& b, SourceLoc loc);
// F.scaled_dot_product_attention without dropout or GQA; mask may be none, scale NaN for 1/sqrt(E).
Value t_attention(Interp& in, const Value& q, const Value& k, const Value& v, const Value& mask, bool causal,
                  double scale, SourceLoc loc);

// A convolution's options as PyTorch spells them: an int or a tuple of nd ints each (padding also 'same' or
// 'valid' when not transposed); none means the default (stride 1, padding 0, dilation 1, output_padding 0).
struct ConvSpec {
  int nd = 2;
  bool transposed = false;
  Value stride, padding, dilation, output_padding;
  int64_t groups = 1;
};
// F.conv{nd}d / F.conv_transpose{nd}d (batched or unbatched input), then `+ bias` over the channel dim.
Value t_conv(Interp& in, const std::string& fname, const Value& x, const Value& w, const Value& bias,
             const ConvSpec& spec, SourceLoc loc);

// A tensor of one value: a graph constant broadcast to `shape` in forward, shape-only elsewhere.
Value t_full(Interp& in, Shape shape, double value, DType dtype, SourceLoc loc);

// The dtype PyTorch gives a tensor created from a Python scalar or a nested list of them.
DType scalar_dtype(const Value& v);

}  // namespace tz::tracer
