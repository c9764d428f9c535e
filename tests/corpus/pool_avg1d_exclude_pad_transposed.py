import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.avg_pool1d with padding, ceil_mode and count_include_pad=False on a transposed (non-contiguous) input."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.avg_pool1d(x.transpose(1, 2), 5, stride=3, padding=2, ceil_mode=True, count_include_pad=False)


batch_size = 64
length = 8191
channels = 512

# cpu-shrink: --set batch_size=3 --set length=62 --set channels=7


def get_inputs():
    return [torch.randn(batch_size, length, channels)]


def get_init_inputs():
    return []
