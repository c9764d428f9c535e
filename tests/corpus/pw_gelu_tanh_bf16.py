import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """Tanh-approximate GELU of one bf16 tensor times another."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return F.gelu(x, approximate="tanh") * y


tokens = 65536
hidden = 8192

# cpu-shrink: --set tokens=43 --set hidden=97


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.bfloat16), torch.randn(tokens, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
