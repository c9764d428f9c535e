import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """nn.Hardtanh(-2, 2) with positional bounds on bf16 activations."""

    def __init__(self):
        super().__init__()
        self.act = nn.Hardtanh(-2, 2)

    def forward(self, x):
        return self.act(x * 3.0)


tokens = 262144
hidden = 2048

# cpu-shrink: --set tokens=59 --set hidden=181


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
