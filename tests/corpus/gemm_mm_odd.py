import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.mm with sizes that are multiples of no block size."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.mm(a, b)


M = 3001
K = 4999
N = 1999

# cpu-shrink: --set M=37 --set K=53 --set N=41


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
