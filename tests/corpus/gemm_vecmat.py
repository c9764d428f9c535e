import torch
import torch.nn as nn


class Model(nn.Module):
    """Vector-matrix product with @: a 1-D [K] tensor times a [K, N] matrix."""

    def __init__(self):
        super().__init__()

    def forward(self, v, W):
        return v @ W


K = 32768
N = 32768

# cpu-shrink: --set K=89 --set N=71


def get_inputs():
    return [torch.randn(K), torch.randn(K, N)]


def get_init_inputs():
    return []
