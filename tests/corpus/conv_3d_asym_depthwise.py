import torch
import torch.nn as nn


class Model(nn.Module):
    """Asymmetric depthwise nn.Conv3d: kernel (3, 5, 1), stride (1, 2, 1), padding (1, 2, 0), no bias."""

    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv3d(channels, channels, (3, 5, 1), stride=(1, 2, 1), padding=(1, 2, 0), groups=channels,
                              bias=False)

    def forward(self, x):
        return self.conv(x)


batch_size = 8
channels = 64
depth = 16
height = 128
width = 96

# cpu-shrink: --set batch_size=2 --set channels=5 --set depth=5 --set height=11 --set width=7


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return [channels]
