import torch
import torch.nn as nn


class Model(nn.Module):
    """4-D tensor times a matrix with torch.matmul: [B, H, S, K] @ [K, N] -> [B, H, S, N] (one shared weight)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return torch.matmul(x, w)


B = 4
H = 12
S = 509
K = 2048
N = 1536

# cpu-shrink: --set B=2 --set H=3 --set S=17 --set K=19 --set N=21


def get_inputs():
    # The second operand is scaled like an initialized weight (variance 1/K), so outputs are O(1)
    # (tests/corpus/README.md, "Large-K fp32 GEMMs").
    return [torch.randn(B, H, S, K), torch.randn(K, N) / K**0.5]


def get_init_inputs():
    return []
