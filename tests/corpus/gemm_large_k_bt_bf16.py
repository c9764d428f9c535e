import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """bf16 x @ w.t() with a huge inner dimension (K = 1000003, about 2000 times M and N): both operands
    contiguous along K, fp32 accumulation over a million products, one rounding at the end."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return x @ w.t()


M = 512
K = 1000003
N = 640

# cpu-shrink: --set M=17 --set K=509 --set N=19


def get_inputs():
    return [torch.randn(M, K, dtype=torch.bfloat16), torch.randn(N, K, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
