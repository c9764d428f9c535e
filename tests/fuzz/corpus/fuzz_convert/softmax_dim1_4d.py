import torch
import torch.nn as nn


class Model(nn.Module):
    """Softmax across channels (dim=1) of an NCHW tensor: a strided, non-innermost softmax."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.softmax(dim=1)


batch_size = 7
channels = 96
height = 128
width = 128

# cpu-shrink: --set batch_size=2 --set channels=21 --set height=7 --set width=11


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
