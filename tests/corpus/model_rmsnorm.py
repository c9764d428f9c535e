import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        rms = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * rms * self.weight


class Model(nn.Module):
    """RMS norm written by hand (pow, mean, rsqrt) in a nested module, with a keyword eps."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.norm = RMSNorm(dim, eps=eps)

    def forward(self, x):
        return self.norm(x)


batch_size = 16
seq_len = 2048
dim = 4096

# cpu-shrink: --set batch_size=2 --set seq_len=13 --set dim=151


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim)]


def get_init_inputs():
    return [dim, 1e-5]
