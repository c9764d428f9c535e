import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """F.adaptive_max_pool1d(x, 1) on bf16: the global max over the sequence, as a reduction."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.adaptive_max_pool1d(x, 1)


batch_size = 128
channels = 512
length = 8191

# cpu-shrink: --set batch_size=3 --set channels=5 --set length=301


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
