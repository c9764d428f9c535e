import torch
import torch.nn as nn


class Model(nn.Module):
    """RMS norm over the last dim with a learned per-feature weight, x * torch.rsqrt(x.pow(2).mean(-1) + eps)."""

    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))


batch_size = 16
seq_len = 4096
dim = 4096

# cpu-shrink: --set batch_size=2 --set seq_len=37 --set dim=211


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim)]


def get_init_inputs():
    return [dim]
