import torch
import torch.nn as nn


class Model(nn.Module):
    """einsum with a transposed second operand ('ik,jk->ij', A @ B^T read by strides) and an implicit
    output ('ij,jk', the subscripts seen once, in order)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, C):
        return torch.einsum("ij,jk", torch.einsum("ik,jk->ij", A, B), C)


M = 8192
K = 1024
N = 3072
P = 512

# cpu-shrink: --set M=23 --set K=19 --set N=33 --set P=18


def get_inputs():
    return [torch.randn(M, K), torch.randn(N, K) / K**0.5, torch.randn(N, P) / N**0.5]  # O(1) products


def get_init_inputs():
    return []
