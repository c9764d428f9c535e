# A correct generated file for scaled_relu.py: one fused kernel, parameters drawn as the reference draws them.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_relu_kernel(x_ptr, scale_ptr, bias_ptr, y_ptr, n_elements, features, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    column = offsets % features
    scale = tl.load(scale_ptr + column, mask=mask, other=0.0).to(tl.float32)
    bias = tl.load(bias_ptr + column, mask=mask, other=0.0).to(tl.float32)
    y = tl.maximum(x, 0.0) * scale + bias
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def scaled_relu(x, scale, bias):
    if not x.is_contiguous():
        raise ValueError("expected a contiguous input")
    y = torch.empty_like(x)
    n = x.numel()
    block = 256
    scaled_relu_kernel[(triton.cdiv(n, block),)](x, scale, bias, y, n, x.shape[-1], BLOCK=block)
    return y


class ModelNew(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(features))
        self.bias = nn.Parameter(torch.randn(features))

    def forward(self, x):
        return scaled_relu(x, self.scale, self.bias)
