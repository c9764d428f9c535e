import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """nn.ReLU6(inplace=True) on fp16 activations after a scale."""

    def __init__(self):
        super().__init__()
        self.act = nn.ReLU6(inplace=True)

    def forward(self, x):
        return self.act(x * 4.0)


tokens = 131072
hidden = 4096

# cpu-shrink: --set tokens=47 --set hidden=243


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.float16)]


def get_init_inputs():
    return []
