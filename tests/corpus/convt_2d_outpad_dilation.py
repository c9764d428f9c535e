import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.ConvTranspose2d with an asymmetric kernel (3, 5), stride (2, 3), padding (1, 2), output_padding (1, 2),
    dilation (2, 1), then ReLU."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_channels, out_channels, (3, 5), stride=(2, 3), padding=(1, 2),
                                     output_padding=(1, 2), dilation=(2, 1))

    def forward(self, x):
        return torch.relu(self.up(x))


batch_size = 128
in_channels = 64
out_channels = 32
height = 64
width = 48

# cpu-shrink: --set batch_size=2 --set in_channels=6 --set out_channels=11 --set height=5 --set width=4


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
