import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """fp16 torch.diag(d) @ B.transpose(0, 1): a row scale of a transposed view (B stored [M, N]); the N x N
    diagonal matrix is never built."""

    def __init__(self):
        super().__init__()

    def forward(self, d, B):
        return torch.diag(d) @ B.transpose(0, 1)


N = 4095
M = 32767

# cpu-shrink: --set N=37 --set M=131


def get_inputs():
    return [torch.randn(N, dtype=torch.float16), torch.randn(M, N, dtype=torch.float16)]


def get_init_inputs():
    return []
