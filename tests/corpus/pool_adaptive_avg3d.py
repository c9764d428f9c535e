import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.AdaptiveAvgPool3d((4, 6, 5)) where some dims divide evenly and some do not."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool3d((4, 6, 5))

    def forward(self, x):
        return self.pool(x)


batch_size = 16
channels = 32
depth = 64
height = 96
width = 98

# cpu-shrink: --set batch_size=2 --set channels=3 --set depth=8 --set height=13 --set width=11


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return []
