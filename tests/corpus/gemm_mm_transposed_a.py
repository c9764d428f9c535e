import torch
import torch.nn as nn


class Model(nn.Module):
    """A^T B where A is stored [K, M]: the left operand is a transposed (column-major) view."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.mm(a.t(), b)


M = 2048
K = 8192
N = 3072

# cpu-shrink: --set M=35 --set K=66 --set N=29


def get_inputs():
    return [torch.randn(K, M), torch.randn(K, N)]


def get_init_inputs():
    return []
