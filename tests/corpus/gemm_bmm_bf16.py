import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """bf16 batched matrix product with torch.bmm, odd M and N."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.bmm(a, b)


batch_size = 64
M = 2000
K = 1024
N = 1500

# cpu-shrink: --set batch_size=3 --set M=37 --set K=45 --set N=23


def get_inputs():
    return [torch.randn(batch_size, M, K, dtype=torch.bfloat16), torch.randn(batch_size, K, N, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
