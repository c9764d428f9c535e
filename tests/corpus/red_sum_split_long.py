import torch
import torch.nn as nn


class Model(nn.Module):
    """A whole-tensor sum of squares and a whole-tensor max: long reductions that tritonize splits across
    programs (the shrunk size is still long enough to take the split path)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return (x * x).sum() / x.numel() + x.amax()


rows = 8192
cols = 32768

# cpu-shrink: --set rows=2 --set cols=32768
# cpu-shrink-long: rows longer than 16384 elements take the looped (or split) reduction path


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
