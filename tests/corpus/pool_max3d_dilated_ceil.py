import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.MaxPool3d(3, stride=2, padding=1, dilation=2, ceil_mode=True) on a 5-D volume: dilated windows that
    start in the padding, with a ceil-mode extra window where it still starts inside the input."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool3d(3, stride=2, padding=1, dilation=2, ceil_mode=True)

    def forward(self, x):
        return self.pool(x)


batch_size = 16
channels = 48
depth = 65
height = 126
width = 94

# cpu-shrink: --set batch_size=2 --set channels=3 --set depth=9 --set height=14 --set width=18


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return []
