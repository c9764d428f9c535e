import torch
import torch.nn as nn


class Model(nn.Module):
    """tril(A @ B, diagonal=2) of a wide product: output tiles wholly above the band skip their K loop."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.tril(A @ B, diagonal=2)


M = 4096
K = 2048
N = 8192

# cpu-shrink: --set M=19 --set K=17 --set N=300


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N) / K**0.5]


def get_init_inputs():
    return []
