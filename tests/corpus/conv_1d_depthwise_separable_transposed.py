import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise-separable nn.Conv1d block on a [batch, length, channels] input transposed in forward (non-contiguous):
    depthwise kernel 7 (groups = channels, padding 3, no bias), then a pointwise 1x1 nn.Conv1d with bias."""

    def __init__(self, channels, out_channels):
        super().__init__()
        self.depthwise = nn.Conv1d(channels, channels, 7, padding=3, groups=channels, bias=False)
        self.pointwise = nn.Conv1d(channels, out_channels, kernel_size=1)

    def forward(self, x):
        return self.pointwise(self.depthwise(x.transpose(1, 2)))


batch_size = 64
length = 16383
channels = 256
out_channels = 512

# cpu-shrink: --set batch_size=2 --set length=75 --set channels=13 --set out_channels=19


def get_inputs():
    return [torch.randn(batch_size, length, channels)]


def get_init_inputs():
    return [channels, out_channels]
