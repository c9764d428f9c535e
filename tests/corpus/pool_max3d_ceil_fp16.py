import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """F.max_pool3d with a (2, 3, 3) window, stride 2, dilation (1, 1, 2) and ceil_mode on fp16 volumes."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.max_pool3d(x, (2, 3, 3), stride=2, dilation=(1, 1, 2), ceil_mode=True)


batch_size = 16
channels = 32
depth = 63
height = 96
width = 97

# cpu-shrink: --set batch_size=2 --set channels=3 --set depth=9 --set height=10 --set width=13


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width, dtype=torch.float16)]


def get_init_inputs():
    return []
