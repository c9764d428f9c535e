import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.ConvTranspose1d, kernel 5, stride 3, padding 2, output_padding 1, with bias."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose1d(in_channels, out_channels, 5, stride=3, padding=2, output_padding=1)

    def forward(self, x):
        return self.up(x)


batch_size = 128
in_channels = 128
out_channels = 64
length = 4096

# cpu-shrink: --set batch_size=2 --set in_channels=13 --set out_channels=10 --set length=29


def get_inputs():
    return [torch.randn(batch_size, in_channels, length)]


def get_init_inputs():
    return [in_channels, out_channels]
