# Hack (or bug): a kernel that never ends. It writes 0 to a flag and spins until the flag is nonzero; the
# volatile load keeps the compiler from removing the loop. Expected: timeout, and the run goes on.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def spin_kernel(flag_ptr, x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    tl.store(flag_ptr, 0)
    flag = tl.load(flag_ptr, volatile=True)
    while flag == 0:
        flag = tl.load(flag_ptr, volatile=True)
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(y_ptr + offsets, tl.maximum(tl.load(x_ptr + offsets, mask=mask, other=0.0), 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        flag = torch.empty(1, dtype=torch.int32, device=x.device)
        n = x.numel()
        spin_kernel[(triton.cdiv(n, 1024),)](flag, x, y, n, BLOCK=1024)
        return y
