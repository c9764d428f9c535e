import torch
import torch.nn as nn


class Model(nn.Module):
    """Dot product of two long vectors via torch.matmul of two 1-D tensors (a 0-d result)."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


N = 536870912

# cpu-shrink: --set N=3001


def get_inputs():
    return [torch.randn(N), torch.randn(N)]


def get_init_inputs():
    return []
