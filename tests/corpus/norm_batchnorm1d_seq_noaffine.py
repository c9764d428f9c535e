import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm1d(affine=False) on [batch, channels, length], momentum 0.3, two calls' worth of updates."""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm1d(channels, affine=False, momentum=0.3)

    def forward(self, x):
        return self.bn(x)


batch_size = 64
channels = 256
length = 16384

# cpu-shrink: --set batch_size=7 --set channels=5 --set length=301


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels]
