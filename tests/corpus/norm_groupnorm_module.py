import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.GroupNorm(num_groups, channels) with re-drawn affine parameters, on an NCHW activation, then SiLU."""

    def __init__(self, num_groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels, eps=1e-6)
        nn.init.normal_(self.gn.weight, mean=1.0, std=0.2)
        nn.init.normal_(self.gn.bias, std=0.2)

    def forward(self, x):
        return torch.nn.functional.silu(self.gn(x))


batch_size = 256
channels = 256
num_groups = 32
height = 64
width = 64

# cpu-shrink: --set batch_size=3 --set channels=15 --set num_groups=5 --set height=11 --set width=13


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [num_groups, channels]
