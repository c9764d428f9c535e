import torch
import torch.nn as nn


class Model(nn.Module):
    """Powers: tensor ** int, tensor ** float (on |x|), and scalar ** tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return x ** 2 - 0.1 * x ** 3 + x.abs() ** 0.5 + 2.0 ** y


batch_size = 8192
dim = 8192

# cpu-shrink: --set batch_size=31 --set dim=129


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
