import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.avg_pool3d(kernel 3, stride 2, padding 1, ceil_mode): the last windows' divisor is clipped at input + padding."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True)


batch_size = 16
channels = 32
depth = 64
height = 96
width = 95

# cpu-shrink: --set batch_size=2 --set channels=3 --set depth=8 --set height=10 --set width=13


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return []
