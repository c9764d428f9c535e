import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """fp16 F.conv3d (weight and bias are inputs), kernel 3, dilation 2 and padding 2: D, H and W are kept."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w, b):
        return F.conv3d(x, w, b, padding=2, dilation=2)


batch_size = 8
in_channels = 64
out_channels = 96
depth = 33
height = 63
width = 65

# cpu-shrink: --set batch_size=2 --set in_channels=5 --set out_channels=7 --set depth=7 --set height=9 --set width=11
# dtype: fp16


def get_inputs():
    x = torch.randn(batch_size, in_channels, depth, height, width, dtype=torch.float16)
    w = torch.randn(out_channels, in_channels, 3, 3, 3, dtype=torch.float16) * 0.03
    b = torch.randn(out_channels, dtype=torch.float16)
    return [x, w, b]


def get_init_inputs():
    return []
