import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SwiGLU-style gating: silu(gate) * up."""

    def __init__(self):
        super().__init__()

    def forward(self, gate, up):
        return F.silu(gate) * up


N = 32768
HIDDEN = 11008

# cpu-shrink: --set N=29 --set HIDDEN=150


def get_inputs():
    return [torch.randn(N, HIDDEN), torch.randn(N, HIDDEN)]


def get_init_inputs():
    return []
