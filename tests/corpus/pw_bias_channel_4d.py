import torch
import torch.nn as nn


class Model(nn.Module):
    """Per-channel affine ([C, 1, 1] parameters) on an NCHW tensor, then ReLU."""

    def __init__(self, channels):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(channels, 1, 1))
        self.bias = nn.Parameter(torch.randn(channels, 1, 1) * 0.1)

    def forward(self, x):
        return torch.relu(x * self.scale + self.bias)


batch_size = 32
channels = 128
height = 128
width = 256

# cpu-shrink: --set batch_size=2 --set channels=5 --set height=19 --set width=23


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
