import torch
import torch.nn as nn


class Model(nn.Module):
    """Sum over the outermost dim (dim 0) and mean over the middle dim of a [T, B, D] tensor: two strided
    reductions of the same input, neither over the contiguous dim."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.sum(dim=0), torch.mean(x, dim=1)


steps = 127
batch_size = 2047
dim = 2048

# cpu-shrink: --set steps=11 --set batch_size=29 --set dim=53


def get_inputs():
    return [torch.randn(steps, batch_size, dim)]


def get_init_inputs():
    return []
