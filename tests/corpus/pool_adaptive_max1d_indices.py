import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.adaptive_max_pool1d(..., return_indices=True) on a transposed input; the indices are used as floats."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        values, indices = F.adaptive_max_pool1d(x.transpose(1, 2), 12, return_indices=True)
        return values + indices.float() * 0.001


batch_size = 64
length = 8191
channels = 512

# cpu-shrink: --set batch_size=3 --set length=61 --set channels=7


def get_inputs():
    return [torch.randn(batch_size, length, channels)]


def get_init_inputs():
    return []
