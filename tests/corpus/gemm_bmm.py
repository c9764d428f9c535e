import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched matrix product with torch.bmm."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.bmm(a, b)


batch_size = 64
M = 1024
K = 768
N = 1024

# cpu-shrink: --set batch_size=3 --set M=33 --set K=40 --set N=19


def get_inputs():
    return [torch.randn(batch_size, M, K), torch.randn(batch_size, K, N)]


def get_init_inputs():
    return []
