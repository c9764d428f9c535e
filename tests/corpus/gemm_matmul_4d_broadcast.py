import torch
import torch.nn as nn


class Model(nn.Module):
    """4-D matmul whose batch dims broadcast: [B, 1, M, K] @ [1, H, K, N] -> [B, H, M, N]."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return a @ b


B = 8
H = 16
M = 1024
K = 256
N = 1024

# cpu-shrink: --set B=2 --set H=3 --set M=19 --set K=33 --set N=21


def get_inputs():
    return [torch.randn(B, 1, M, K), torch.randn(1, H, K, N)]


def get_init_inputs():
    return []
