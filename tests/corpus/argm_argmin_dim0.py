import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.argmin over the outermost dim of a matrix: the row index of each column's minimum (a strided,
    column-wise argmin over 32767 rows)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.argmin(x, dim=0)


rows = 32767
cols = 32768

# cpu-shrink: --set rows=301 --set cols=41


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
