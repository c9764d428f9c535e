import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """fp16 F.conv_transpose2d with bias (weight and bias are inputs): kernel 2, stride 2 (no overlap)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w, b):
        return F.conv_transpose2d(x, w, b, stride=2)


batch_size = 128
in_channels = 128
out_channels = 64
height = 96
width = 96

# cpu-shrink: --set batch_size=2 --set in_channels=21 --set out_channels=9 --set height=6 --set width=7
# dtype: fp16


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width, dtype=torch.float16)
    w = torch.randn(in_channels, out_channels, 2, 2, dtype=torch.float16) * 0.1
    b = torch.randn(out_channels, dtype=torch.float16)
    return [x, w, b]


def get_init_inputs():
    return []
