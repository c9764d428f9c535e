import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.sigmoid and F.tanh of a [batch, dim] input that get_inputs() returns transposed (non-contiguous), gating a
    contiguous one."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return F.sigmoid(x) * y + F.tanh(x * 0.5)


batch_size = 32771
dim = 16383

# cpu-shrink: --set batch_size=67 --set dim=131


def get_inputs():
    x = torch.randn(dim, batch_size).t()
    y = torch.randn(batch_size, dim)
    return [x, y]


def get_init_inputs():
    return []
