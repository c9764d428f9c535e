import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm2d with very few channels and large images: each channel's statistics are split over many
    programs and combined."""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, momentum=0.05)

    def forward(self, x):
        return self.bn(x)


batch_size = 64
channels = 3
height = 512
width = 512

# cpu-shrink: --set batch_size=5 --set channels=1 --set height=61 --set width=61


def get_inputs():
    return [torch.rand(batch_size, channels, height, width) * 4.0 + 10.0]


def get_init_inputs():
    return [channels]
