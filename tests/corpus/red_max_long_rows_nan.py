import torch
import torch.nn as nn


class Model(nn.Module):
    """max and min over long rows (a looped reduction), with NaN where x > 4.0 (about two per row):
    PyTorch's max propagates NaN, so most rows' results are NaN (mapped to -7: allclose fails on any NaN) and a
    dropped NaN shows as a wrong number."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.sqrt(4.0 - x)
        hi, lo = y.max(dim=-1).values, torch.min(y, dim=-1)[0]
        return torch.where(hi == hi, hi, -7.0), torch.where(lo != lo, -7.0, lo)


rows = 4096
cols = 65537

# cpu-shrink: --set rows=5 --set cols=20001


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
