import torch
import torch.nn as nn


class Model(nn.Module):
    """Reverse cumsum written x.flip(1).cumsum(1).flip(1): a suffix sum along each row."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.flip(1).cumsum(1).flip(1)


batch_size = 32768
dim = 8191

# cpu-shrink: --set batch_size=7 --set dim=1031


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
