import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """torch.selu and F.selu of a large matrix (PyTorch's fixed alpha and scale)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return torch.selu(x) + F.selu(y)


batch_size = 16384
dim = 16384

# cpu-shrink: --set batch_size=47 --set dim=133


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
