import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """bf16 4-D tensor times a matrix with @, the 4-D operand a transposed view: x stored [B, S, H, K] and
    viewed as [B, H, S, K] in forward, so its rows are not one flat [B*H*S, K] matrix."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return x.transpose(1, 2) @ w


B = 10
S = 2047
H = 16
K = 1024
N = 1200

# cpu-shrink: --set B=2 --set S=19 --set H=3 --set K=21 --set N=23


def get_inputs():
    return [torch.randn(B, S, H, K, dtype=torch.bfloat16), torch.randn(K, N, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
