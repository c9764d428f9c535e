import torch
import torch.nn as nn


class Model(nn.Module):
    """Running totals of one channel: x[:, 0] and x.select(1, -1) picked by integer index, each cumsum'ed over time."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        first = torch.cumsum(x[:, 0], dim=-1)
        last = x.select(1, -1).cumsum(dim=-1)
        return first - last


batch_size = 4096
channels = 7
length = 65535

# cpu-shrink: --set batch_size=5 --set channels=3 --set length=1031


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
