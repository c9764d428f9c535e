import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.MaxPool2d(2): 2x2 windows, stride 2, on an NCHW activation (odd sizes drop the last row and column)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(x)


batch_size = 32
channels = 64
height = 511
width = 513

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=37 --set width=41


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
