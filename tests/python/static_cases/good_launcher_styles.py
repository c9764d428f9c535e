# expect: ok kernelbench_rejects
# Forms a generated file may use in forward and its launchers, all free of torch compute. (The word pass in
# this docstring-like comment is fine; in a string it would trip KernelBench's textual checker.)
"""Docstrings may say pass: the AST check looks at statements, KernelBench's regex does not."""
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCKS = {torch.float32: 1024, torch.float16: 2048}


@triton.jit
def affine_kernel(x_ptr, w_ptr, y_ptr, n, cols, stride_row, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    row = offsets // cols
    col = offsets % cols
    x = tl.load(x_ptr + row * stride_row + col, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + col, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offsets, (x * w).to(y_ptr.dtype.element_ty), mask=mask)


def _grid_size(n, block):
    # plain integer arithmetic in a helper is fine
    return (n + block - 1) // block


def _precision():
    return "tf32" if torch.backends.cuda.matmul.allow_tf32 else "tf32x3"


def affine(x, w):
    rows, cols = x.shape
    assert x.stride(1) == 1, "rows must be contiguous"
    block = BLOCKS.get(x.dtype, 1024)
    y = torch.empty((rows, cols), device=x.device, dtype=x.dtype)
    grid = lambda meta: (triton.cdiv(rows * cols, meta["BLOCK"]),)
    with torch.cuda.device(x.device):
        affine_kernel[grid](x, w, y, rows * cols, cols, x.stride(0), BLOCK=block)
    return y


class Scale(nn.Module):
    """A submodule defined in this file: its forward is checked too."""

    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n))
        nn.init.uniform_(self.weight, -1 / math.sqrt(n), 1 / math.sqrt(n))

    def forward(self, x):
        return affine(x, self.weight)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.scale = Scale(n)
        self.register_buffer("gain", torch.ones(n))
        self.eps = 1e-5
        self.parts = 2

    def _check(self, x):
        if x.dim() != 3 or x.shape[-1] != self.gain.shape[0]:
            raise ValueError(f"expected [batch, rows, {self.gain.shape[0]}], got {tuple(x.shape)}")

    def forward(self, x):
        self._check(x)
        batch, rows, cols = x.shape
        flat = x.view(batch * rows, cols)
        halves = flat.chunk(self.parts)
        outs = []
        for half in halves:
            outs.append(affine(half, self.gain))
        y = self.scale(flat.t().t())
        scratch = y.new_empty((1,))
        if x.dtype == torch.float16 or _precision() == "tf32":
            y = affine(y, self.gain)
        eps_times_two = self.eps * 2 + scratch.numel()
        return y.view(batch, rows, cols).permute(0, 1, 2).unsqueeze(0).squeeze(0), outs[0].shape[0] + eps_times_two
