import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Bias add then tanh-approximated GELU; the bias is initialised with nn.init.uniform_."""

    def __init__(self, hidden):
        super().__init__()
        self.bias = nn.Parameter(torch.empty(hidden))
        nn.init.uniform_(self.bias, -0.1, 0.1)

    def forward(self, x):
        return F.gelu(x + self.bias, approximate="tanh")


tokens = 32768
hidden = 8192

# cpu-shrink: --set tokens=45 --set hidden=111


def get_inputs():
    return [torch.randn(tokens, hidden)]


def get_init_inputs():
    return [hidden]
