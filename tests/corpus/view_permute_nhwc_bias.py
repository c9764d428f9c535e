import torch
import torch.nn as nn


class Model(nn.Module):
    """NHWC input permuted to NCHW, a [C, 1, 1] bias, then sigmoid; the result stays non-contiguous."""

    def __init__(self, channels):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(channels, 1, 1))
        nn.init.normal_(self.bias, std=0.1)

    def forward(self, x):
        return torch.sigmoid(x.permute(0, 3, 1, 2) + self.bias)


batch_size = 256
height = 128
width = 128
channels = 96

# cpu-shrink: --set batch_size=2 --set height=11 --set width=15 --set channels=19


def get_inputs():
    return [torch.randn(batch_size, height, width, channels)]


def get_init_inputs():
    return [channels]
