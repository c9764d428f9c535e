import torch
import torch.nn as nn


class Model(nn.Module):
    """diag(a) @ B: a row scale of B; the N x N diagonal matrix is never built."""

    def __init__(self):
        super().__init__()

    def forward(self, a, B):
        return torch.diag(a) @ B


N = 16384
M = 32768

# cpu-shrink: --set N=37 --set M=130


def get_inputs():
    return [torch.randn(N), torch.randn(N, M)]


def get_init_inputs():
    return []
