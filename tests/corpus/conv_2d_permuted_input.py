import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv2d over an NHWC tensor permuted to NCHW in forward (a non-contiguous input), then a scale."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)

    def forward(self, x):
        return self.conv(x.permute(0, 3, 1, 2)) * 0.5


batch_size = 128
in_channels = 64
out_channels = 64
height = 128
width = 128

# cpu-shrink: --set batch_size=2 --set in_channels=6 --set out_channels=10 --set height=9 --set width=14


def get_inputs():
    return [torch.randn(batch_size, height, width, in_channels)]


def get_init_inputs():
    return [in_channels, out_channels]
