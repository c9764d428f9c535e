import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.AdaptiveMaxPool2d((None, 6)): the height is kept (None), the width pooled into 6 uneven windows."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveMaxPool2d((None, 6))

    def forward(self, x):
        return self.pool(x)


batch_size = 128
channels = 64
height = 256
width = 250

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=9 --set width=25


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
