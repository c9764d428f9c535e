import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.cumprod along the last dim of factors near 1 (1 + 0.01 * x), so the products stay finite."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.cumprod(1.0 + 0.01 * x, dim=-1)


batch_size = 32768
dim = 4097

# cpu-shrink: --set batch_size=5 --set dim=2053


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
