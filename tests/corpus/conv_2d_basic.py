import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Conv2d 3x3, stride 1, padding 1, with bias: the common ResNet-style layer."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


batch_size = 16
in_channels = 64
out_channels = 128
height = 128
width = 128

# cpu-shrink: --set batch_size=2 --set in_channels=5 --set out_channels=19 --set height=13 --set width=11


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
