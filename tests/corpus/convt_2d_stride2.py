import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.ConvTranspose2d 4x4, stride 2, padding 1: the usual 2x upsampling layer of a decoder."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_channels, out_channels, 4, stride=2, padding=1)

    def forward(self, x):
        return self.up(x)


batch_size = 128
in_channels = 128
out_channels = 64
height = 64
width = 64

# cpu-shrink: --set batch_size=2 --set in_channels=9 --set out_channels=10 --set height=5 --set width=7


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
