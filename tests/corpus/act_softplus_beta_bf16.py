import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """F.softplus with a fractional beta and a positional threshold on bf16 input."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.softplus(x, 0.5, 5.0)


tokens = 262144
hidden = 2048

# cpu-shrink: --set tokens=37 --set hidden=277


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
