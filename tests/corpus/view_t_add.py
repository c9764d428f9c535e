import torch
import torch.nn as nn


class Model(nn.Module):
    """Adds the transpose of a matrix (x.t(), then torch.transpose) to another, scaled per column."""

    def __init__(self, n):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(n))

    def forward(self, x, y):
        z = torch.relu(x.t() + y) * self.scale
        return torch.transpose(z, 0, 1) - x


n = 8192
m = 8192

# cpu-shrink: --set n=45 --set m=83


def get_inputs():
    return [torch.randn(n, m), torch.randn(m, n)]


def get_init_inputs():
    return [n]
