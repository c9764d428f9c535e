import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """fp16 tall-skinny operands giving a large output: [M, K] @ [K, M] with K much smaller than M."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


M = 32768
K = 64

# cpu-shrink: --set M=53 --set K=18


def get_inputs():
    return [torch.randn(M, K, dtype=torch.float16), torch.randn(K, M, dtype=torch.float16)]


def get_init_inputs():
    return []
