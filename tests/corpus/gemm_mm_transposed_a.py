import torch
import torch.nn as nn


class Model(nn.Module):
    """A^T B where A is stored [K, M]: the left operand is a transposed (column-major) view."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.mm(a.t(), b)


M = 2048
K = 8192
N = 3072

# cpu-shrink: --set M=35 --set K=66 --set N=29


def get_inputs():
    # The second operand is scaled like an initialized weight (variance 1/K), so outputs are O(1) and the
    # 1e-4 check measures accuracy: with unit variance on both sides at this K, cuBLAS's own error is ~1e-3
    # and even the exact product rounded to fp32 fails it (tests/corpus/README.md, "Large-K fp32 GEMMs").
    return [torch.randn(K, M), torch.randn(K, N) / K**0.5]


def get_init_inputs():
    return []
