import torch
import torch.nn as nn


EPS = 1e-5


class Model(nn.Module):
    """sqrt and rsqrt of non-negative inputs, with a module-level epsilon used in forward."""

    def __init__(self):
        super().__init__()

    def forward(self, v):
        return torch.sqrt(v) + torch.rsqrt(v + EPS) * 0.01 - (v * 4.0).sqrt()


n = 64
m = 1048576

# cpu-shrink: --set n=7 --set m=613


def get_inputs():
    return [torch.rand(n, m)]


def get_init_inputs():
    return []
