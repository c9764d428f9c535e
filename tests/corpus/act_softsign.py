import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.softsign of a large matrix, times a second input."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return F.softsign(x * 3.0) * y


batch_size = 16384
dim = 8192

# cpu-shrink: --set batch_size=39 --set dim=251


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
