import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix times a Python scalar passed to forward (memory-bound: one read and one write of A)."""

    def __init__(self):
        super().__init__()

    def forward(self, A, s):
        return A * s


M = 32768
N = 16384

# cpu-shrink: --set M=37 --set N=130


def get_inputs():
    return [torch.randn(M, N), 3.25]


def get_init_inputs():
    return []
