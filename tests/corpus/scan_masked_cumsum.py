import torch
import torch.nn as nn


class Model(nn.Module):
    """Masked cumsum: torch.cumsum(x * mask, dim=1) with a bool mask input."""

    def __init__(self):
        super().__init__()

    def forward(self, x, mask):
        return torch.cumsum(x * mask, dim=1)


batch_size = 32768
dim = 8191

# cpu-shrink: --set batch_size=7 --set dim=1031


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randint(0, 2, (batch_size, dim)).bool()]


def get_init_inputs():
    return []
