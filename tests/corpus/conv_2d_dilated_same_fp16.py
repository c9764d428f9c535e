import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """fp16 F.conv2d (weight and bias are inputs) with an asymmetric (3, 5) kernel, dilation (2, 3) and padding='same'
    on a wide (H != W) input."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w, b):
        return F.conv2d(x, w, b, padding="same", dilation=(2, 3))


batch_size = 64
in_channels = 64
out_channels = 128
height = 127
width = 191

# cpu-shrink: --set batch_size=2 --set in_channels=5 --set out_channels=7 --set height=11 --set width=13
# dtype: fp16


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width, dtype=torch.float16)
    w = torch.randn(out_channels, in_channels, 3, 5, dtype=torch.float16) * 0.03
    b = torch.randn(out_channels, dtype=torch.float16)
    return [x, w, b]


def get_init_inputs():
    return []
