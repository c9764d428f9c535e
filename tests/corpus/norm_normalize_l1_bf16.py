import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """F.normalize(p=1, dim=1) of bf16 [batch, channels, length] activations: L1 normalisation across channels."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.normalize(x, p=1.0, dim=1)


batch_size = 256
channels = 384
length = 8191

# cpu-shrink: --set batch_size=3 --set channels=19 --set length=301


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
