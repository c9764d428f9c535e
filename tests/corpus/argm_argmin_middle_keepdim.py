import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.argmin over the middle dim of a 3-D tensor with keepdim=True (a strided, column-wise argmin)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.argmin(x, dim=1, keepdim=True)


batch_size = 512
channels = 1021
length = 2048

# cpu-shrink: --set batch_size=3 --set channels=37 --set length=131


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
