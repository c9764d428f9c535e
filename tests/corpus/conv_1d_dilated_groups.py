import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """WaveNet-style F.conv1d: dilation 4, groups 2, padding 'same', weight and bias as parameters, then tanh."""

    def __init__(self, channels, groups):
        super().__init__()
        self.groups = groups
        self.weight = nn.Parameter(torch.randn(channels, channels // groups, 3) * 0.1)
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return torch.tanh(F.conv1d(x, self.weight, self.bias, padding="same", dilation=4, groups=self.groups))


batch_size = 64
channels = 256
groups = 2
length = 8192

# cpu-shrink: --set batch_size=2 --set channels=18 --set length=77


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return [channels, groups]
