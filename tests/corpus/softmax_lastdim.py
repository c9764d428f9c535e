import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.softmax over the last dim."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


batch_size = 131072
dim = 4096

# cpu-shrink: --set batch_size=23 --set dim=193


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
