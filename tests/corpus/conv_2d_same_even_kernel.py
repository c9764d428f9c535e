import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Conv2d with an even 4x4 kernel and padding='same': PyTorch pads one more row and column at the end."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 4, padding="same")

    def forward(self, x):
        return self.conv(x)


batch_size = 128
in_channels = 32
out_channels = 64
height = 96
width = 96

# cpu-shrink: --set batch_size=2 --set in_channels=5 --set out_channels=9 --set height=10 --set width=11


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
