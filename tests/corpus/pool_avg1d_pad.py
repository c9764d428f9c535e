import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.AvgPool1d(kernel_size=4, stride=2, padding=1): zero padding counted in the divisor (count_include_pad)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool1d(kernel_size=4, stride=2, padding=1)

    def forward(self, x):
        return self.pool(x)


batch_size = 64
channels = 256
length = 16385

# cpu-shrink: --set batch_size=3 --set channels=5 --set length=99


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
