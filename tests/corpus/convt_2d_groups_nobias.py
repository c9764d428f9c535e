import torch
import torch.nn as nn


class Model(nn.Module):
    """Grouped nn.ConvTranspose2d (groups=4, no bias), 3x3, stride 2, padding 1, output_padding 1."""

    def __init__(self, in_channels, out_channels, groups):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_channels, out_channels, 3, stride=2, padding=1, output_padding=1,
                                     groups=groups, bias=False)

    def forward(self, x):
        return self.up(x)


batch_size = 16
in_channels = 128
out_channels = 128
groups = 4
height = 64
width = 64

# cpu-shrink: --set batch_size=2 --set in_channels=12 --set out_channels=36 --set height=5 --set width=6


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, groups]
