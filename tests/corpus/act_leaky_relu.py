import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.leaky_relu with a positional and a keyword negative_slope on an NCHW activation."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.leaky_relu(x, 0.2) + F.leaky_relu(x * 0.5, negative_slope=0.05)


batch_size = 64
channels = 128
height = 128
width = 128

# cpu-shrink: --set batch_size=3 --set channels=5 --set height=37 --set width=29


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
