import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """F.normalize(p=2, dim=-1) of fp16 embeddings transposed from [dim, batch] (a non-contiguous input)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.normalize(x.t(), dim=-1)


dim = 4096
batch_size = 131072

# cpu-shrink: --set dim=131 --set batch_size=67


def get_inputs():
    return [torch.randn(dim, batch_size, dtype=torch.float16)]


def get_init_inputs():
    return []
