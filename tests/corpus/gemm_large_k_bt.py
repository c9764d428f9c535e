import torch
import torch.nn as nn


class Model(nn.Module):
    """x @ w.t() with a huge inner dimension (K = 1000003, about 2000 times M and N): both operands contiguous
    along K, w scaled by 1 / sqrt(K). (Its first version in bf16 failed on the H200 with eager the side off: eager
    92 from the float64 product, tritonize 19, both past 1e-2: cuBLAS reduces bf16 partial sums in bf16.)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return x @ w.t()


M = 512
K = 1000003
N = 640

# cpu-shrink: --set M=17 --set K=509 --set N=19


def get_inputs():
    return [torch.randn(M, K), torch.randn(N, K) / K**0.5]


def get_init_inputs():
    return []
