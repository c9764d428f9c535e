import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """The three common ways to write ReLU, in one expression."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return torch.relu(x) + F.relu(y) - (x - y).relu()


batch_size = 16384
dim = 8192

# cpu-shrink: --set batch_size=33 --set dim=131


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
