import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """Batched B @ diag(d) in fp16 (a column scale), written with torch.matmul."""

    def __init__(self):
        super().__init__()

    def forward(self, B, d):
        return torch.matmul(B, torch.diag(d))


batch = 128
M = 2048
N = 4096

# cpu-shrink: --set batch=2 --set M=23 --set N=131


def get_inputs():
    return [torch.randn(batch, M, N, dtype=torch.float16), torch.randn(N, dtype=torch.float16)]


def get_init_inputs():
    return []
