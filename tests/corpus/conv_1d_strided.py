import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Conv1d over a long sequence: kernel 7, stride 2, padding 3, with bias."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, 7, stride=2, padding=3)

    def forward(self, x):
        return self.conv(x)


batch_size = 32
in_channels = 128
out_channels = 256
length = 16384

# cpu-shrink: --set batch_size=2 --set in_channels=11 --set out_channels=19 --set length=83


def get_inputs():
    return [torch.randn(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, out_channels]
