import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """fp16 products of factors near 1 (1 + 0.01 * x) over the outer dim and over the middle dim of a 3-D
    tensor (eager rounds the factors to fp16 and accumulates the products in fp32)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        f = 1.0 + 0.01 * x
        return f.prod(dim=0), torch.prod(f, 1)


batch_size = 255
seq_len = 255
dim = 8191

# cpu-shrink: --set batch_size=11 --set seq_len=13 --set dim=131


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim, dtype=torch.float16)]


def get_init_inputs():
    return []
