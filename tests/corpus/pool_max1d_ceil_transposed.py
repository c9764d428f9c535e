import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.max_pool1d with ceil_mode on a [batch, length, channels] input transposed to channels-first (non-contiguous)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.max_pool1d(x.transpose(1, 2), 3, stride=2, ceil_mode=True)


batch_size = 128
length = 8191
channels = 512

# cpu-shrink: --set batch_size=3 --set length=60 --set channels=7


def get_inputs():
    return [torch.randn(batch_size, length, channels)]


def get_init_inputs():
    return []
