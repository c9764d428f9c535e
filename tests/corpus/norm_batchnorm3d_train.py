import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm3d in training mode on a video-like [N, C, D, H, W] activation, then a residual add."""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm3d(channels)
        nn.init.uniform_(self.bn.weight, 0.5, 1.5)
        nn.init.uniform_(self.bn.bias, -0.5, 0.5)

    def forward(self, x):
        return self.bn(x) + x


batch_size = 64
channels = 32
depth = 16
height = 64
width = 64

# cpu-shrink: --set batch_size=3 --set channels=5 --set depth=3 --set height=19 --set width=23


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return [channels]
