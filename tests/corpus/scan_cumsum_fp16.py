import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """cumsum of positive fp16 values along the last dim (accumulated in fp16 as eager does on a GPU: rounded after every add)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.cumsum(x, dim=-1)


batch_size = 262144
dim = 2047

# cpu-shrink: --set batch_size=23 --set dim=517


def get_inputs():
    return [torch.rand(batch_size, dim, dtype=torch.float16)]


def get_init_inputs():
    return []
