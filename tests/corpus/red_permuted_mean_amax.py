import torch
import torch.nn as nn


class Model(nn.Module):
    """Reductions over the last dim of a permuted (non-contiguous) view: mean + amax over channels."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = x.permute(0, 2, 1)
        return y.mean(dim=-1) + y.amax(dim=-1)


batch_size = 256
channels = 512
length = 4096

# cpu-shrink: --set batch_size=3 --set channels=37 --set length=43


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
