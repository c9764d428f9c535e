import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Conv2d with a 3x5 kernel, stride (2, 1), padding (1, 2) and no bias, on a wide (H != W) input."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=(3, 5), stride=(2, 1), padding=(1, 2), bias=False)

    def forward(self, x):
        return self.conv(x)


batch_size = 16
in_channels = 32
out_channels = 64
height = 128
width = 256

# cpu-shrink: --set batch_size=2 --set in_channels=6 --set out_channels=11 --set height=9 --set width=21


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
