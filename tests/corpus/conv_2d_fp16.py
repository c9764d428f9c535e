import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.conv2d entirely in fp16 (weight and bias are inputs): 3x3, padding 1, fp32 accumulation."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w, b):
        return F.conv2d(x, w, b, padding=1)


batch_size = 128
in_channels = 64
out_channels = 128
height = 128
width = 128

# cpu-shrink: --set batch_size=2 --set in_channels=19 --set out_channels=13 --set height=9 --set width=11
# dtype: fp16


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width, dtype=torch.float16)
    w = torch.randn(out_channels, in_channels, 3, 3, dtype=torch.float16)
    b = torch.randn(out_channels, dtype=torch.float16)
    return [x, w, b]


def get_init_inputs():
    return []
