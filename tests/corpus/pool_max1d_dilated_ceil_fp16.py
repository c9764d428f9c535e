import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """F.max_pool1d with kernel 3, stride 2, padding 1, dilation 2 and ceil_mode on fp16 sequences: the first
    window starts in the left padding, the last one may hang past the end."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.max_pool1d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True)


batch_size = 128
channels = 500
length = 16382

# cpu-shrink: --set batch_size=2 --set channels=5 --set length=302


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=torch.float16)]


def get_init_inputs():
    return []
