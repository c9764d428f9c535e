import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """torch.min(x, 0) and torch.max(x, dim=0, keepdim=True) on an fp16 [T, B, D] tensor: values and indices
    over the outermost dim, where fp16 rounding makes ties (the first index wins) common."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        low, low_idx = torch.min(x, 0)
        top = torch.max(x, dim=0, keepdim=True)
        return low, low_idx, top.values, top.indices


steps = 1023
batch_size = 1024
dim = 1023

# cpu-shrink: --set steps=131 --set batch_size=3 --set dim=43


def get_inputs():
    return [torch.randn(steps, batch_size, dim, dtype=torch.float16)]


def get_init_inputs():
    return []
