import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """Products of a non-contiguous input (get_inputs() builds it with .t()): over the last dim, a strided
    reduction, of factors 1 + 0.005 * x, and over the whole of a [37, 401] corner of it, factors 1 + x / sqrt(numel).
    (A float32 product of N factors near 1 differs between reduction orders by about 4e-8 * sqrt(N) relative: a
    whole product of 5e8 factors is 1e-3 apart in eager's order and any other, past rtol 1e-4. 15k stays within.)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        rows = torch.prod(1.0 + 0.005 * x, dim=-1)
        corner = x[:37, :401]
        whole = torch.prod(1.0 + corner / math.sqrt(corner.numel()))
        return rows, whole


rows = 16383
cols = 32768

# cpu-shrink: --set rows=37 --set cols=401


def get_inputs():
    return [torch.randn(cols, rows).t()]


def get_init_inputs():
    return []
