import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.prod over the outermost dim of factors 1 + 0.001 * x, and Tensor.prod over the whole of a [7, dim]
    slice, factors 1 + x / sqrt(numel) (finite at any size). (A float32 product of N factors near 1 differs between
    reduction orders by about 4e-8 * sqrt(N) relative: over all 5e8 elements eager's order and any other are 1e-3
    apart, past rtol 1e-4; 28k factors stay within.)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        outer = torch.prod(1.0 + 0.001 * x, dim=0)
        part = x[0, :7]
        whole = (1.0 + part / math.sqrt(part.numel())).prod()
        return outer, whole


steps = 63
batch_size = 2047
dim = 4096

# cpu-shrink: --set steps=7 --set batch_size=37 --set dim=61


def get_inputs():
    return [torch.randn(steps, batch_size, dim)]


def get_init_inputs():
    return []
