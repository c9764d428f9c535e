import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """bf16 matrix times a scalar kept by the module (a constructor argument), written as torch.mul."""

    def __init__(self, alpha):
        super().__init__()
        self.alpha = alpha

    def forward(self, A):
        return torch.mul(A, self.alpha)


M = 32768
N = 32768

# cpu-shrink: --set M=41 --set N=129


def get_inputs():
    return [torch.randn(M, N, dtype=torch.bfloat16)]


def get_init_inputs():
    return [0.375]
