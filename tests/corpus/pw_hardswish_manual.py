import torch
import torch.nn as nn


class Model(nn.Module):
    """Hard-swish written out: x * clamp(x + 3, 0, 6) / 6, on a 4-D activation."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x * torch.clamp(x + 3.0, 0.0, 6.0) / 6.0


batch_size = 128
channels = 64
height = 128
width = 128

# cpu-shrink: --set batch_size=3 --set channels=3 --set height=17 --set width=21


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
