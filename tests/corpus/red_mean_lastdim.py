import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.mean over the last (contiguous) dim, keepdim False."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.mean(x, dim=-1)


batch_size = 131072
dim = 8192

# cpu-shrink: --set batch_size=29 --set dim=257


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
