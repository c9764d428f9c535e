"""An emulation of PyTorch's CUDA cumsum/cumprod (aten/src/ATen/native/cuda/ScanUtils.cuh), written from its
description in numpy, for test_scan_aten_order.py: innermost scans in tiles of 2T elements with Sklansky's levels,
outer scans as a sequential fold per column, fp16/bf16 rounded to nearest even after every operation."""

import numpy as np
import torch


def make_input(shape, dtype, kind):
    torch.manual_seed(0)
    dt = getattr(torch, dtype)
    if kind == "randn":
        return torch.randn(*shape).to(dt)
    if kind == "rand":
        return torch.rand(*shape).to(dt)
    return (1.0 + 0.05 * torch.randn(*shape)).to(dt)  # factors near 1: products stay finite


def _round(v, dtype):
    """float32 values rounded to the scan's type (nearest even) and back: ATen's scalar_t after each op."""
    if dtype == torch.float32:
        return v
    return torch.from_numpy(np.ascontiguousarray(v)).to(dtype).to(torch.float32).numpy()


def aten_scan(x, dim, kind):
    """ATen's CUDA cumsum/cumprod of x along dim (not the one-non-unit-dim CUB case), in x's dtype."""
    dtype = x.dtype
    a = x.contiguous().to(torch.float32).numpy()
    op = np.add if kind == "sum" else np.multiply
    init = np.float32(0.0 if kind == "sum" else 1.0)
    dim %= a.ndim
    assert a.size != a.shape[dim], "CUB's whole-tensor scan is not emulated"
    if dim == a.ndim - 1:
        n = a.shape[-1]
        rows = a.reshape(-1, n)
        lx = max(0, (n - 1).bit_length())  # smallest l with 2^l >= n
        ly = max(0, (rows.shape[0] - 1).bit_length())
        diff = (lx - ly) & 0xFFFFFFFF  # uint32, as ATen computes it
        log_x = min(max(((9 + diff) & 0xFFFFFFFF) // 2, 4), 9)
        t_x = 1 << log_x
        out = np.empty_like(rows)
        total = np.full(rows.shape[0], init, np.float32)
        for start in range(0, n, 2 * t_x):
            part = rows[:, start:start + 2 * t_x]
            buf = np.full((rows.shape[0], 2 * t_x), init, np.float32)
            buf[:, :part.shape[1]] = part
            buf[:, 0] = _round(op(buf[:, 0], total), dtype)
            t = np.arange(t_x)
            for m in range(log_x + 1):
                s = 1 << m
                base = ((t >> m) << (m + 1)) | s
                ti, si = base + t % s, base - 1
                buf[:, ti] = _round(op(buf[:, ti], buf[:, si]), dtype)  # reads see the level before
            out[:, start:start + part.shape[1]] = buf[:, :part.shape[1]]
            total = buf[:, 2 * t_x - 1].copy()
        return torch.from_numpy(out.reshape(a.shape)).to(dtype)
    moved = np.moveaxis(a, dim, 0)
    out = np.empty_like(moved)
    acc = np.full(moved.shape[1:], init, np.float32)
    for k in range(moved.shape[0]):
        acc = _round(op(acc, moved[k]), dtype)
        out[k] = acc
    return torch.from_numpy(np.moveaxis(out, 0, dim).copy()).to(dtype)
