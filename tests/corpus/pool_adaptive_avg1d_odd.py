import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.AdaptiveAvgPool1d(10) over an odd length: windows of two sizes, divisor per window."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool1d(10)

    def forward(self, x):
        return self.pool(x)


batch_size = 128
channels = 256
length = 16383

# cpu-shrink: --set batch_size=3 --set channels=5 --set length=97


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
