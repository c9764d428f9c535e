import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.softmax over dim=1 of a [batch, dim] input that get_inputs() returns transposed (non-contiguous: the softmax
    dim has the largest stride), at a temperature below 1."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.softmax(x * 1.5, dim=1)


dim = 2999
batch_size = 179999

# cpu-shrink: --set dim=131 --set batch_size=67


def get_inputs():
    return [torch.randn(dim, batch_size).t()]


def get_init_inputs():
    return []
