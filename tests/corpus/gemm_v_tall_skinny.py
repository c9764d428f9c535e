import torch
import torch.nn as nn


class Model(nn.Module):
    """Tall-skinny product: a [M, K] matrix with very many rows times a [K, N] matrix with few columns."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


M = 2097152
K = 256
N = 48

# cpu-shrink: --set M=301 --set K=21 --set N=19


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
