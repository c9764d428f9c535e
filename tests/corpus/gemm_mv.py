import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix-vector product spelled torch.mv, fp32 (memory-bound: one read of A)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return torch.mv(A, x)


M = 24001
K = 40009

# cpu-shrink: --set M=67 --set K=101


def get_inputs():
    return [torch.randn(M, K), torch.randn(K)]


def get_init_inputs():
    return []
