import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """Batched bf16 product with a small odd inner dimension (K = 24, padded and masked in the K loop)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.bmm(A, B)


batch = 128
M = 4096
K = 24
N = 2048

# cpu-shrink: --set batch=2 --set M=37 --set K=24 --set N=43


def get_inputs():
    return [torch.randn(batch, M, K, dtype=torch.bfloat16), torch.randn(batch, K, N, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
