import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Conv3d 3x3x3, padding 1, with bias, on a video-like [N, C, D, H, W] input."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


batch_size = 8
in_channels = 32
out_channels = 64
depth = 16
height = 64
width = 64

# cpu-shrink: --set batch_size=2 --set in_channels=3 --set out_channels=9 --set depth=3 --set height=7 --set width=6


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
