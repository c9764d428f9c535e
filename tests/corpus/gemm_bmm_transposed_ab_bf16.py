import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """bf16 batched A^T B^T: torch.bmm of two transpose(1, 2) views (A stored [batch, K, M], B stored
    [batch, N, K]), so neither operand is read row-major."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.bmm(a.transpose(1, 2), b.transpose(1, 2))


batch = 32
M = 2500
K = 2048
N = 2200

# cpu-shrink: --set batch=3 --set M=37 --set K=27 --set N=33


def get_inputs():
    return [torch.randn(batch, K, M, dtype=torch.bfloat16), torch.randn(batch, N, K, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
