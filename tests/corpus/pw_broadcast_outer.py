import torch
import torch.nn as nn


class Model(nn.Module):
    """Broadcasting: a column [N, 1] times a row [1, M], plus a matrix and a bias vector [M]."""

    def __init__(self, m):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(m) * 0.02)

    def forward(self, x, col, row):
        return x + col * row + self.bias


N = 16384
M = 8192

# cpu-shrink: --set N=43 --set M=107


def get_inputs():
    return [torch.randn(N, M), torch.randn(N, 1), torch.randn(1, M)]


def get_init_inputs():
    return [M]
