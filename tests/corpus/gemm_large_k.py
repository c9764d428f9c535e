import torch
import torch.nn as nn


class Model(nn.Module):
    """Very large inner dimension: [M, K] @ [K, N] with K about 400 times M and N (few output tiles, a long
    K loop each), fp32."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


M = 509
K = 196613
N = 383

# cpu-shrink: --set M=17 --set K=515 --set N=19


def get_inputs():
    # The second operand is scaled like an initialized weight (variance 1/K), so outputs are O(1) and the
    # 1e-4 check measures accuracy (tests/corpus/README.md, "Large-K fp32 GEMMs").
    return [torch.randn(M, K), torch.randn(K, N) / K**0.5]


def get_init_inputs():
    return []
