import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.ConvTranspose3d with an asymmetric kernel (2, 3, 3), stride (2, 1, 2), padding (0, 1, 1), output_padding
    (1, 0, 1) and dilation (1, 2, 1), with bias, on a volume whose D, H and W all differ."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose3d(in_channels, out_channels, (2, 3, 3), stride=(2, 1, 2), padding=(0, 1, 1),
                                     output_padding=(1, 0, 1), dilation=(1, 2, 1))

    def forward(self, x):
        return self.up(x)


batch_size = 16
in_channels = 64
out_channels = 48
depth = 17
height = 63
width = 65

# cpu-shrink: --set batch_size=2 --set in_channels=5 --set out_channels=7 --set depth=3 --set height=5 --set width=7


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
