import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.flatten(start_dim=1) and Tensor.flatten(2) on NCHW input, with per-position weights."""

    def __init__(self, channels, height, width):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(channels * height * width))
        self.pos = nn.Parameter(torch.zeros(height * width))

    def forward(self, x):
        a = torch.flatten(x, start_dim=1) * self.weight
        b = x.flatten(2) + self.pos
        return a + b.flatten(1)


batch_size = 256
channels = 64
height = 96
width = 96

# cpu-shrink: --set batch_size=3 --set channels=5 --set height=11 --set width=13


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, height, width]
