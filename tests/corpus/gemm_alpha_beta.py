import torch
import torch.nn as nn


ALPHA = 0.5
BETA = 2.0


class Model(nn.Module):
    """GEMM epilogue with module constants: ALPHA * (a @ b) + BETA * c."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b, c):
        return ALPHA * (a @ b) + BETA * c


M = 3072
K = 4096
N = 5120

# cpu-shrink: --set M=34 --set K=57 --set N=26


def get_inputs():
    # The second operand is scaled like an initialized weight (variance 1/K), so outputs are O(1) and the
    # 1e-4 check measures accuracy: with unit variance on both sides at this K, cuBLAS's own error is ~1e-3
    # and even the exact product rounded to fp32 fails it (tests/corpus/README.md, "Large-K fp32 GEMMs").
    return [torch.randn(M, K), torch.randn(K, N) / K**0.5, torch.randn(M, N)]


def get_init_inputs():
    return []
