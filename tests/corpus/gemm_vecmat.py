import torch
import torch.nn as nn


class Model(nn.Module):
    """Vector-matrix product with @: a 1-D [K] tensor times a [K, N] matrix."""

    def __init__(self):
        super().__init__()

    def forward(self, v, W):
        return v @ W


K = 32768
N = 32768

# cpu-shrink: --set K=89 --set N=71


def get_inputs():
    # The second operand is scaled like an initialized weight (variance 1/K), so outputs are O(1) and the
    # 1e-4 check measures accuracy: with unit variance on both sides at this K, cuBLAS's own error is ~1e-3
    # and even the exact product rounded to fp32 fails it (tests/corpus/README.md, "Large-K fp32 GEMMs").
    return [torch.randn(K), torch.randn(K, N) / K**0.5]


def get_init_inputs():
    return []
