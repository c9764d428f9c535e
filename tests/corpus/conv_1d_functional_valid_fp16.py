import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """fp16 F.conv1d (weight and bias are inputs), kernel 9, stride 2, dilation 2, padding='valid', over an odd-length
    sequence."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w, b):
        return F.conv1d(x, w, b, stride=2, padding="valid", dilation=2)


batch_size = 64
in_channels = 256
out_channels = 384
length = 16383

# cpu-shrink: --set batch_size=2 --set in_channels=7 --set out_channels=9 --set length=101
# dtype: fp16


def get_inputs():
    x = torch.randn(batch_size, in_channels, length, dtype=torch.float16)
    w = torch.randn(out_channels, in_channels, 9, dtype=torch.float16) * 0.02
    b = torch.randn(out_channels, dtype=torch.float16)
    return [x, w, b]


def get_init_inputs():
    return []
