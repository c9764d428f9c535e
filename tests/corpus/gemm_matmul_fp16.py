import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """fp16 matrix product (fp32 accumulation, one rounding at the end)."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


M = 8192
K = 8192
N = 8192

# cpu-shrink: --set M=45 --set K=67 --set N=35


def get_inputs():
    return [torch.randn(M, K, dtype=torch.float16), torch.randn(K, N, dtype=torch.float16)]


def get_init_inputs():
    return []
