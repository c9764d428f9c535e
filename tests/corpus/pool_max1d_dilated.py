import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.MaxPool1d with kernel 4, stride 2, padding 2 and dilation 3 over a long sequence."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size=4, stride=2, padding=2, dilation=3)

    def forward(self, x):
        return self.pool(x)


batch_size = 64
channels = 256
length = 16384

# cpu-shrink: --set batch_size=3 --set channels=5 --set length=97


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
