import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """nn.BatchNorm2d(affine=False, track_running_stats=False) on fp16 activations: batch statistics in fp32,
    no buffers at all."""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, affine=False, track_running_stats=False)

    def forward(self, x):
        return self.bn(x)


batch_size = 64
channels = 96
height = 128
width = 128

# cpu-shrink: --set batch_size=4 --set channels=6 --set height=21 --set width=25


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.float16)]


def get_init_inputs():
    return [channels]
