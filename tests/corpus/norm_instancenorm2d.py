import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.InstanceNorm2d with its defaults (no affine, no running statistics): per-sample, per-channel
    normalisation over H and W."""

    def __init__(self, channels):
        super().__init__()
        self.norm = nn.InstanceNorm2d(channels)

    def forward(self, x):
        return self.norm(x)


batch_size = 128
channels = 64
height = 256
width = 256

# cpu-shrink: --set batch_size=3 --set channels=5 --set height=29 --set width=37


def get_inputs():
    return [torch.randn(batch_size, channels, height, width) * 3.0 + 1.0]


def get_init_inputs():
    return [channels]
