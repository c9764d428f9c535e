import torch
import torch.nn as nn


class Model(nn.Module):
    """A^T B^T with both operands transposed views: A stored [K, M], B stored [N, K], odd sizes."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.mm(a.t(), b.t())


M = 3001
K = 4097
N = 2999

# cpu-shrink: --set M=35 --set K=43 --set N=29


def get_inputs():
    # The second operand is scaled like an initialized weight (variance 1/K), so outputs are O(1) and the
    # 1e-4 check measures accuracy (tests/corpus/README.md, "Large-K fp32 GEMMs").
    return [torch.randn(K, M), torch.randn(N, K) / K**0.5]


def get_init_inputs():
    return []
