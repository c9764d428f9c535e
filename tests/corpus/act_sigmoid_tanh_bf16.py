import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """torch.sigmoid and F.tanh on bf16 activations."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sigmoid(x) + F.tanh(x)


tokens = 262144
hidden = 2048

# cpu-shrink: --set tokens=53 --set hidden=187


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
