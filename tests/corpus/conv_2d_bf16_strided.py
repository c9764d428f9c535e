import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bf16 F.conv2d, 5x5 kernel, stride 2, padding 2, no bias: a downsampling layer."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return F.conv2d(x, w, stride=2, padding=2)


batch_size = 128
in_channels = 64
out_channels = 128
height = 192
width = 192

# cpu-shrink: --set batch_size=2 --set in_channels=7 --set out_channels=9 --set height=13 --set width=10
# dtype: bf16


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width, dtype=torch.bfloat16)
    w = torch.randn(out_channels, in_channels, 5, 5, dtype=torch.bfloat16) * 0.05
    return [x, w]


def get_init_inputs():
    return []
