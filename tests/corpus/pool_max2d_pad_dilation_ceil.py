import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.max_pool2d with kernel 3, stride 2, padding 1, dilation 2 and ceil_mode (windows start in the left padding)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.max_pool2d(x, kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True)


batch_size = 64
channels = 64
height = 384
width = 383

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=29 --set width=30


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
