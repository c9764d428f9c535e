import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """nn.Hardswish() on bf16 activations, plus a residual."""

    def __init__(self):
        super().__init__()
        self.act = nn.Hardswish()

    def forward(self, x):
        return self.act(x * 3.0) + x


tokens = 131072
hidden = 4096

# cpu-shrink: --set tokens=37 --set hidden=291


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
