import torch
import torch.nn as nn


class Model(nn.Module):
    """Broadcast matmul: a [B, S, K] activation times a shared [K, N] matrix."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return torch.matmul(x, w)


batch_size = 16
seq_len = 1024
K = 4096
N = 2048

# cpu-shrink: --set batch_size=2 --set seq_len=23 --set K=37 --set N=31


def get_inputs():
    return [torch.randn(batch_size, seq_len, K), torch.randn(K, N)]


def get_init_inputs():
    return []
