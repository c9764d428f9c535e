import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.max / torch.min with a dim returning (values, indices), unpacked and by attribute, with and without keepdim."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        values, indices = torch.min(x, dim=2)
        top = torch.max(x, 1, keepdim=True)
        return values, indices, top.values, top.indices


batch_size = 256
rows = 1023
cols = 4097

# cpu-shrink: --set batch_size=3 --set rows=23 --set cols=131


def get_inputs():
    return [torch.randn(batch_size, rows, cols)]


def get_init_inputs():
    return []
