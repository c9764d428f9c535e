import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Sequential(Conv2d, ReLU, Conv2d) with options from the constructor (tuple kernel, stride, padding,
    groups, bias=False), then torch.conv2d with positional arguments and a 1x1 weight parameter."""

    def __init__(self, in_channels, hidden, out_channels, groups, bias):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_channels, hidden, (3, 5), stride=(2, 1), padding=(1, 2), groups=groups, bias=bias),
            nn.ReLU(),
            nn.Conv2d(hidden, hidden, 3, padding=1),
        )
        self.proj = nn.Parameter(torch.randn(out_channels, hidden, 1, 1) * 0.05)

    def forward(self, x):
        return torch.conv2d(self.body(x), self.proj, None, 1, 0)


batch_size = 16
in_channels = 64
hidden = 128
out_channels = 64
groups = 2
height = 128
width = 96

# cpu-shrink: --set batch_size=2 --set in_channels=6 --set hidden=18 --set out_channels=9 --set height=9 --set width=7


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, hidden, out_channels, groups, False]
