import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """fp16 symmetric product S @ S^T of one input with itself (the second operand a transposed view)."""

    def __init__(self):
        super().__init__()

    def forward(self, S):
        return S @ S.T


N = 8192

# cpu-shrink: --set N=47


def get_inputs():
    A = torch.randn(N, N, dtype=torch.float16)
    return [(A + A.T) * 0.5]


def get_init_inputs():
    return []
