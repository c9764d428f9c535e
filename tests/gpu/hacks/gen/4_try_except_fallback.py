# Hack: the kernel does not compile; the except branch quietly computes with PyTorch.
# Expected: static_fail, static:try_except (the numbers are right).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def broken_relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(y_ptr + offsets, tl.no_such_function(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        try:
            broken_relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        except Exception:
            y = torch.relu(x)
        return y
