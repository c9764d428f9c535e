import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.AvgPool3d(kernel_size=3, stride=2, padding=1) on a 5-D volume (padding counted in the divisor)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool3d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.pool(x)


batch_size = 16
channels = 32
depth = 96
height = 96
width = 97

# cpu-shrink: --set batch_size=2 --set channels=3 --set depth=9 --set height=11 --set width=13


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return []
