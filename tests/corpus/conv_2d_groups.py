import torch
import torch.nn as nn


class Model(nn.Module):
    """Grouped nn.Conv2d (groups=4), 3x3, padding 1, stride 2."""

    def __init__(self, in_channels, out_channels, groups):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, stride=2, padding=1, groups=groups)

    def forward(self, x):
        return self.conv(x)


batch_size = 32
in_channels = 128
out_channels = 256
groups = 4
height = 112
width = 112

# cpu-shrink: --set batch_size=2 --set in_channels=12 --set out_channels=36 --set height=11 --set width=9


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, groups]
