# expect: ok
# The shape of output DESIGN.md shows (shared/examples/linear_gelu_triton.py), copied here.
"""Triton implementation of Model in linear_gelu.py.

An illustration of the shape of tritonize's output, not a tuned kernel: one fused kernel per group of
operations, a comment naming the source lines it implements, a short launcher, and a ModelNew whose parameters
have the original names and are drawn from the random stream exactly as the original draws them.
"""
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_gelu_scale_kernel(
    x_ptr, w_ptr, b_ptr, scale_ptr, y_ptr,
    M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
    DOT_PRECISION: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
):
    # linear_gelu.py:13-14   y = F.gelu(self.fc(x)); return y * self.scale
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = pid // (GROUP_M * num_n)
    first_m = group * GROUP_M
    rows_in_group = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % (GROUP_M * num_n)) % rows_in_group
    pid_n = (pid % (GROUP_M * num_n)) // rows_in_group

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + rk
        x = tl.load(x_ptr + rm[:, None] * stride_xm + k[None, :] * stride_xk,
                    mask=(rm[:, None] < M) & (k[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * stride_wn + k[:, None] * stride_wk,
                    mask=(rn[None, :] < N) & (k[:, None] < K), other=0.0)
        acc = tl.dot(x, w, acc, input_precision=DOT_PRECISION)

    # epilogue: bias, exact GELU, scale
    bias = tl.load(b_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    scale = tl.load(scale_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    h = acc + bias[None, :]
    y = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476)) * scale[None, :]
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, y.to(y_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def _fp32_dot_precision():
    # Follow PyTorch's own switch for fp32 matmuls: full fp32 unless TF32 was allowed.
    return "tf32" if torch.backends.cuda.matmul.allow_tf32 else "tf32x3"


def linear_gelu_scale(x, weight, bias, scale):
    m, k = x.shape
    n = weight.shape[0]
    y = torch.empty((m, n), device=x.device, dtype=x.dtype)
    precision = _fp32_dot_precision() if x.dtype == torch.float32 else "ieee"
    block_m, block_n, block_k = 128, 128, 32
    grid = (triton.cdiv(m, block_m) * triton.cdiv(n, block_n),)
    linear_gelu_scale_kernel[grid](
        x, weight, bias, scale, y, m, n, k,
        x.stride(0), x.stride(1), weight.stride(0), weight.stride(1), y.stride(0), y.stride(1),
        DOT_PRECISION=precision, BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k, GROUP_M=8,
        num_warps=8, num_stages=3,
    )
    return y


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        # self.fc = nn.Linear(in_features, out_features): same names, same draws, same order
        self.fc = nn.Module()
        self.fc.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.fc.bias = nn.Parameter(torch.empty(out_features))
        nn.init.kaiming_uniform_(self.fc.weight, a=math.sqrt(5))
        bound = 1 / math.sqrt(in_features) if in_features > 0 else 0
        nn.init.uniform_(self.fc.bias, -bound, bound)
        # self.scale = nn.Parameter(torch.randn(out_features) * 0.1)
        self.scale = nn.Parameter(torch.randn(out_features).mul_(0.1))

    def forward(self, x):
        if x.dim() != 2 or x.shape[1] != self.fc.weight.shape[1]:
            raise ValueError(f"expected x of shape [batch, {self.fc.weight.shape[1]}], got {tuple(x.shape)}")
        return linear_gelu_scale(x, self.fc.weight, self.fc.bias, self.scale)
