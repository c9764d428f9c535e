import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """fp16 F.conv_transpose1d with bias (weight and bias are inputs): kernel 5, stride 3, padding 1,
    output_padding 2 and dilation 2, over an odd-length sequence."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w, b):
        return F.conv_transpose1d(x, w, b, stride=3, padding=1, output_padding=2, dilation=2)


batch_size = 128
in_channels = 256
out_channels = 128
length = 8191

# cpu-shrink: --set batch_size=2 --set in_channels=11 --set out_channels=7 --set length=29
# dtype: fp16


def get_inputs():
    x = torch.randn(batch_size, in_channels, length, dtype=torch.float16)
    w = torch.randn(in_channels, out_channels, 5, dtype=torch.float16) * 0.05
    b = torch.randn(out_channels, dtype=torch.float16)
    return [x, w, b]


def get_init_inputs():
    return []
