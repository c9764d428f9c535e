import torch
import torch.nn as nn


class Model(nn.Module):
    """Product of two symmetric matrices (a plain matmul; symmetry is a property of the inputs only)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


N = 4096

# cpu-shrink: --set N=47


def get_inputs():
    A = torch.randn(N, N)
    B = torch.randn(N, N)
    return [(A + A.T) / 2, (B + B.T) / (2 * N**0.5)]  # K = N: the second operand scaled like a weight


def get_init_inputs():
    return []
