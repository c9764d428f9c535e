import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.ConvTranspose3d 3x3x3, stride 2, padding 1, output_padding 1: a 2x volumetric upsampling."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose3d(in_channels, out_channels, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x):
        return self.up(x)


batch_size = 32
in_channels = 64
out_channels = 32
depth = 16
height = 32
width = 32

# cpu-shrink: --set batch_size=2 --set in_channels=5 --set out_channels=9 --set depth=3 --set height=4 --set width=5


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
