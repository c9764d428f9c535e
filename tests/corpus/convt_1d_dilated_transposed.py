import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.ConvTranspose1d with kernel 4, stride 2, padding 3, dilation 2 and output_padding 1 (the length doubles), on
    a [batch, length, channels] input transposed in forward (non-contiguous)."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose1d(in_channels, out_channels, 4, stride=2, padding=3, dilation=2, output_padding=1)

    def forward(self, x):
        return self.up(x.transpose(1, 2))


batch_size = 128
length = 8191
in_channels = 256
out_channels = 128

# cpu-shrink: --set batch_size=2 --set length=37 --set in_channels=11 --set out_channels=9


def get_inputs():
    return [torch.randn(batch_size, length, in_channels)]


def get_init_inputs():
    return [in_channels, out_channels]
