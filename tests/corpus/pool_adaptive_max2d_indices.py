import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.adaptive_max_pool2d to (5, 7) with return_indices=True from sizes that do not divide: overlapping
    windows, the values and their int64 flat indices into each H x W plane."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        values, indices = F.adaptive_max_pool2d(x, (5, 7), return_indices=True)
        return values, indices


batch_size = 96
channels = 128
height = 255
width = 257

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=23 --set width=29


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
