import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix-vector product of a transposed matrix, A^T @ x with A stored [K, M]: each output sums down a
    column of the storage, fp32."""

    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return A.t() @ x


K = 32003
M = 30011

# cpu-shrink: --set K=101 --set M=67


def get_inputs():
    return [torch.randn(K, M), torch.randn(K)]


def get_init_inputs():
    return []
