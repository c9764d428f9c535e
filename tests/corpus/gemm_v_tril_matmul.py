import torch
import torch.nn as nn


class Model(nn.Module):
    """Product of two lower triangular matrices, kept lower triangular: tril(A @ B) (the mask is the
    matmul's epilogue)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.tril(torch.matmul(A, B))


N = 4096

# cpu-shrink: --set N=45


def get_inputs():
    return [torch.tril(torch.randn(N, N)), torch.tril(torch.randn(N, N)) / N**0.5]  # K = N, scaled like a weight


def get_init_inputs():
    return []
