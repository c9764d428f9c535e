import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix-vector product of a transposed matrix, A^T @ x with A stored [K, M]: each output sums down a
    column of the storage, fp32. x is scaled by 1 / sqrt(K): unscaled (outputs up to 700), eager's plain fp32 sums
    were 3.9e-4 from float64 on the H200, past its own 1e-4 near zero outputs (tritonize 1.0e-4)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, x):
        return A.t() @ x


K = 32003
M = 30011

# cpu-shrink: --set K=101 --set M=67


def get_inputs():
    return [torch.randn(K, M), torch.randn(K) / K**0.5]


def get_init_inputs():
    return []
