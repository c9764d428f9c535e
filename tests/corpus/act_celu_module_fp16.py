import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """nn.CELU(0.5) on fp16 input scaled by 3 so that exp saturates for part of the range."""

    def __init__(self):
        super().__init__()
        self.celu = nn.CELU(0.5)

    def forward(self, x):
        return self.celu(x * 3.0)


tokens = 262144
hidden = 2048

# cpu-shrink: --set tokens=43 --set hidden=283


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.float16)]


def get_init_inputs():
    return []
