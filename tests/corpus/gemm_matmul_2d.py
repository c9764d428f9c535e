import torch
import torch.nn as nn


class Model(nn.Module):
    """Plain square matrix product through torch.matmul."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


M = 4096
K = 4096
N = 4096

# cpu-shrink: --set M=33 --set K=70 --set N=47


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
