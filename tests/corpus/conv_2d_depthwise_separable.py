import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise-separable block: depthwise 5x5 (padding 2, no bias), then a 1x1 pointwise conv with bias."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.depthwise = nn.Conv2d(in_channels, in_channels, 5, padding=2, groups=in_channels, bias=False)
        self.pointwise = nn.Conv2d(in_channels, out_channels, 1)

    def forward(self, x):
        return self.pointwise(self.depthwise(x))


batch_size = 64
in_channels = 64
out_channels = 128
height = 128
width = 128

# cpu-shrink: --set batch_size=2 --set in_channels=9 --set out_channels=17 --set height=11 --set width=13


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
