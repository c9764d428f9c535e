import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise nn.Conv2d (groups = channels), 3x3, stride 2, padding 1, with bias."""

    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, stride=2, padding=1, groups=channels)

    def forward(self, x):
        return self.conv(x)


batch_size = 64
channels = 128
height = 256
width = 256

# cpu-shrink: --set batch_size=2 --set channels=7 --set height=23 --set width=19


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
