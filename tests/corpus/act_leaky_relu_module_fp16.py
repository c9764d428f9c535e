import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """nn.LeakyReLU(0.1), and nn.LeakyReLU(inplace=True) (default slope 0.01) on an intermediate, on fp16 activations."""

    def __init__(self):
        super().__init__()
        self.act = nn.LeakyReLU(0.1)
        self.act_default = nn.LeakyReLU(inplace=True)

    def forward(self, x):
        return self.act(x) - self.act_default(x * 2.0)


tokens = 131072
hidden = 4096

# cpu-shrink: --set tokens=41 --set hidden=259


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.float16)]


def get_init_inputs():
    return []
