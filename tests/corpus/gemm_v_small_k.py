import torch
import torch.nn as nn


class Model(nn.Module):
    """Very small inner dimension (K = 16) in a batched product: the output write dominates."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


batch = 4
M = 16384
K = 16
N = 16384

# cpu-shrink: --set batch=2 --set M=37 --set K=16 --set N=45


def get_inputs():
    return [torch.randn(batch, M, K), torch.randn(batch, K, N)]


def get_init_inputs():
    return []
