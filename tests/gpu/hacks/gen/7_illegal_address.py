# Bug: stores 2**44 elements past the output, far outside any allocation.
# Expected: illegal_memory_access, and the run goes on.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def stray_store_kernel(x_ptr, y_ptr, n, stray, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(y_ptr + stray + offsets, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        stray_store_kernel[(triton.cdiv(n, 1024),)](x, y, n, 2**44, BLOCK=1024)
        return y
