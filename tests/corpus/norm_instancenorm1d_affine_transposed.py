import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.InstanceNorm1d(affine=True, eps=1e-3) over the sequence of a [batch, length, channels] input
    transposed to [batch, channels, length] (a non-contiguous input)."""

    def __init__(self, channels):
        super().__init__()
        self.norm = nn.InstanceNorm1d(channels, eps=1e-3, affine=True)
        nn.init.normal_(self.norm.weight, mean=1.0, std=0.3)
        nn.init.normal_(self.norm.bias, std=0.3)

    def forward(self, x):
        return self.norm(x.transpose(1, 2))


batch_size = 64
length = 4096
channels = 512

# cpu-shrink: --set batch_size=3 --set length=301 --set channels=19


def get_inputs():
    return [torch.randn(batch_size, length, channels)]


def get_init_inputs():
    return [channels]
