import torch
import torch.nn as nn


class Model(nn.Module):
    """NaN through max/min: y = log(x + 3.5) is NaN where x < -3.5 (about one per row). PyTorch's amax/amin, relu,
    clamp and maximum all return NaN there; Triton's plain tl.max/tl.maximum keep the number on the GPU. NaN is
    mapped to -7 at the end (allclose fails on any NaN), so a dropped NaN shows as a wrong number."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.log(x + 3.5)
        row_max = torch.amax(y, dim=1)
        col_min = torch.amin(y, dim=0)
        z = torch.maximum(torch.relu(y), torch.clamp(y, min=-1.0, max=1.0))
        return (torch.where(row_max == row_max, row_max, -7.0), torch.where(col_min == col_min, col_min, -7.0),
                torch.where(z == z, z, -7.0))


batch_size = 32768
dim = 4099

# cpu-shrink: --set batch_size=67 --set dim=301


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
