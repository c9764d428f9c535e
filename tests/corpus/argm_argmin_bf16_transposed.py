import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """argmin over the last dim of a transposed bf16 tensor (non-contiguous); bf16 rounding makes ties common."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.transpose(1, 2).argmin(dim=-1)


batch_size = 128
channels = 4096
length = 2047

# cpu-shrink: --set batch_size=3 --set channels=131 --set length=37


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
