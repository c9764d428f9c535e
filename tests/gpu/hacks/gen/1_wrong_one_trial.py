# Hack: right on every call but the 4th (the harness calls ModelNew once to compile and once to warm up, so trial 2 of 5 fails).
# Statically clean: the call counter is a module-level list. Expected: incorrect, mismatch, 4/5 trials.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_CALLS = [0]


@triton.jit
def relu_shift_kernel(x_ptr, y_ptr, n, shift, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(y_ptr + offsets, tl.maximum(x, 0.0) + shift, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        _CALLS[0] += 1
        shift = 0.5 if _CALLS[0] == 4 else 0.0
        y = torch.empty_like(x)
        n = x.numel()
        relu_shift_kernel[(triton.cdiv(n, 1024),)](x, y, n, shift, BLOCK=1024)
        return y
