import torch
import torch.nn as nn


class Model(nn.Module):
    """argmax over rows too long for one tile (looped, with per-lane winners), of a clamped tensor with ties."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.argmax(x.clamp(max=2.0), dim=1)


batch_size = 2048
dim = 262147

# cpu-shrink: --set batch_size=1 --set dim=16411


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
