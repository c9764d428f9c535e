import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.relu6 of a scaled NCHW activation (both clamps active)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.relu6(x * 5.0)


batch_size = 256
channels = 128
height = 112
width = 112

# cpu-shrink: --set batch_size=2 --set channels=9 --set height=27 --set width=25


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
