import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix-vector product: torch.matmul of a 2-D and a 1-D tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return torch.matmul(A, x)


M = 32768
K = 32768

# cpu-shrink: --set M=67 --set K=101


def get_inputs():
    return [torch.randn(M, K), torch.randn(K)]


def get_init_inputs():
    return []
