import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """F.adaptive_max_pool3d(x, 4) on fp16 with sizes divisible by 4: a plain max pool with kernel = stride = size / 4."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.adaptive_max_pool3d(x, 4)


batch_size = 16
channels = 64
depth = 64
height = 64
width = 64

# cpu-shrink: --set batch_size=2 --set channels=3 --set depth=8 --set height=12 --set width=20


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width, dtype=torch.float16)]


def get_init_inputs():
    return []
