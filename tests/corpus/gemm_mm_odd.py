import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.mm with sizes that are multiples of no block size."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.mm(a, b)


M = 3001
K = 4999
N = 1999

# (shrunk sizes still large enough for the gemm_align pass: every side >= 256, K and N unaligned)
# cpu-shrink: --set M=300 --set K=301 --set N=259


def get_inputs():
    # The second operand is scaled like an initialized weight (variance 1/K), so outputs are O(1) and the
    # 1e-4 check measures accuracy: with unit variance on both sides at this K, cuBLAS's own error is ~1e-3
    # and even the exact product rounded to fp32 fails it (tests/corpus/README.md, "Large-K fp32 GEMMs").
    return [torch.randn(M, K), torch.randn(K, N) / K**0.5]


def get_init_inputs():
    return []
