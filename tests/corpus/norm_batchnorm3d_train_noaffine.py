import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm3d(affine=False, momentum=0.25, eps=1e-4) in training mode: batch statistics over
    (N, D, H, W) of inputs far from zero mean, running buffers (and num_batches_tracked) updated."""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm3d(channels, eps=1e-4, momentum=0.25, affine=False)

    def forward(self, x):
        return self.bn(x)


batch_size = 32
channels = 24
depth = 33
height = 127
width = 97

# cpu-shrink: --set batch_size=3 --set channels=5 --set depth=5 --set height=11 --set width=13


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width) * 0.5 + 4.0]


def get_init_inputs():
    return [channels]
