import torch
import torch.nn as nn


class Model(nn.Module):
    """1x1 nn.Conv2d (a per-pixel channel mix) followed by nn.ReLU, fused into the conv's epilogue."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.conv(x))


batch_size = 128
in_channels = 256
out_channels = 128
height = 96
width = 96

# cpu-shrink: --set batch_size=2 --set in_channels=37 --set out_channels=21 --set height=7 --set width=9


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
