import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """torch.celu with alpha=2.0 and F.celu with the default alpha."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.celu(x, alpha=2.0) - F.celu(x)


batch_size = 256
channels = 64
length = 16384

# cpu-shrink: --set batch_size=3 --set channels=7 --set length=397


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
