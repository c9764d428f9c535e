import torch
import torch.nn as nn


class Model(nn.Module):
    """Sinusoidal features added to a [B, S, D] input: positions [S, 1] times learned frequencies [D]
    broadcast to [S, D], then sin and cos, broadcast again over the batch."""

    def __init__(self, dim):
        super().__init__()
        self.freq = nn.Parameter(torch.rand(dim) * 10.0)

    def forward(self, x, pos):
        angle = pos * self.freq
        return x + torch.sin(angle) + 0.5 * torch.cos(angle)


batch_size = 64
seq_len = 4096
dim = 1024

# cpu-shrink: --set batch_size=3 --set seq_len=29 --set dim=47


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim), torch.randn(seq_len, 1)]


def get_init_inputs():
    return [dim]
