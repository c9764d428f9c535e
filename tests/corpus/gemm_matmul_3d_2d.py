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
    # The second operand is scaled like an initialized weight (variance 1/K), so outputs are O(1) and the
    # 1e-4 check measures accuracy: with unit variance on both sides at this K, cuBLAS's own error is ~1e-3
    # and even the exact product rounded to fp32 fails it (tests/corpus/README.md, "Large-K fp32 GEMMs").
    return [torch.randn(batch_size, seq_len, K), torch.randn(K, N) / K**0.5]


def get_init_inputs():
    return []
