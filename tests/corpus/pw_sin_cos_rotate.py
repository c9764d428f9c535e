import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """Rotates (x, y) pairs by a learned angle per feature; angles drawn with torch.rand."""

    def __init__(self, dim):
        super().__init__()
        self.theta = nn.Parameter(torch.rand(dim) * 2 * math.pi)

    def forward(self, x, y):
        return x * torch.cos(self.theta) - y * torch.sin(self.theta)


batch_size = 32768
dim = 4096

# cpu-shrink: --set batch_size=23 --set dim=173


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
