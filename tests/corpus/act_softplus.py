import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.softplus with the defaults (beta 1, threshold 20) on inputs scaled by 12, so some pass the threshold."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.softplus(x * 12.0)


batch_size = 32768
dim = 16384

# cpu-shrink: --set batch_size=43 --set dim=239


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
