import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.AdaptiveAvgPool3d((1, 5, 3)) and nn.AdaptiveMaxPool3d((3, 5, 7)) of the same volume, with sizes that
    do not divide: overlapping windows of varying size on every axis."""

    def __init__(self):
        super().__init__()
        self.avg = nn.AdaptiveAvgPool3d((1, 5, 3))
        self.max = nn.AdaptiveMaxPool3d((3, 5, 7))

    def forward(self, x):
        return self.avg(x), self.max(x)


batch_size = 16
channels = 64
depth = 63
height = 97
width = 95

# cpu-shrink: --set batch_size=2 --set channels=3 --set depth=7 --set height=13 --set width=17


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return []
