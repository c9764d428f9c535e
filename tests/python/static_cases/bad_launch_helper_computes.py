# expect: torch_compute
# A launch helper given the kernel is checked like any other function forward runs: this one launches the
# kernel and then recomputes the result with torch.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < N
    tl.store(y_ptr + offsets, tl.maximum(tl.load(x_ptr + offsets, mask=mask), 0.0), mask=mask)


def _launch(kernel, grid, args, options):
    kernel[grid](**args, **options)
    torch.relu(args["x_ptr"], out=args["y_ptr"])


def relu(x):
    y = torch.empty_like(x)
    _launch(relu_kernel, (triton.cdiv(x.numel(), 1024),), dict(x_ptr=x, y_ptr=y, N=x.numel(), BLOCK=1024),
            dict(num_warps=4))
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return relu(x)
