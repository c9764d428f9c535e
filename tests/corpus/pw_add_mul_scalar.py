import torch
import torch.nn as nn


class Model(nn.Module):
    """Arithmetic on two tensors with Python scalars on either side of + - * /."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        c = a * 2.5 + b - 1.0
        d = 3.0 - c / 4.0
        return d * b + 0.5 / (a.abs() + 1.0)


batch_size = 8192
dim = 16384

# cpu-shrink: --set batch_size=37 --set dim=130


def get_inputs():
    a = torch.randn(batch_size, dim)
    b = torch.randn(batch_size, dim)
    return [a, b]


def get_init_inputs():
    return []
