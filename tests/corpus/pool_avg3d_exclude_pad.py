import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.AvgPool3d(3, stride=2, padding=1, count_include_pad=False): windows on the faces, edges and corners of
    the volume divide by the number of elements they hold inside the input."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool3d(3, stride=2, padding=1, count_include_pad=False)

    def forward(self, x):
        return self.pool(x)


batch_size = 16
channels = 48
depth = 95
height = 97
width = 97

# cpu-shrink: --set batch_size=2 --set channels=3 --set depth=9 --set height=11 --set width=13


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return []
