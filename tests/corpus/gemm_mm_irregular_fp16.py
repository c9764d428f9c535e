import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """fp16 torch.mm with irregular sizes (6007 x 9001 x 7919: odd, rows of A and B not 16-byte aligned). B is
    scaled by 1 / sqrt(K) so that eager's own error (cuBLAS reduces fp16 partial sums in fp16 by default) stays within
    1e-2 of the exact product: unscaled, eager was 0.25 off float64 on the H200 and failed its own tolerance."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.mm(a, b)


M = 6007
K = 9001
N = 7919

# cpu-shrink: --set M=45 --set K=59 --set N=37


def get_inputs():
    return [torch.randn(M, K, dtype=torch.float16), torch.randn(K, N, dtype=torch.float16) / K**0.5]


def get_init_inputs():
    return []
