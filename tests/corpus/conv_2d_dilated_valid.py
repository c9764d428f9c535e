import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.conv2d with hand-made parameters, dilation 2 and padding='valid', then ReLU in the epilogue."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_channels, in_channels, kernel_size, kernel_size) * 0.05)
        self.bias = nn.Parameter(torch.randn(out_channels) * 0.1)

    def forward(self, x):
        return F.relu(F.conv2d(x, self.weight, self.bias, padding="valid", dilation=2))


batch_size = 64
in_channels = 48
out_channels = 96
kernel_size = 3
height = 130
width = 130

# cpu-shrink: --set batch_size=2 --set in_channels=7 --set out_channels=10 --set height=12 --set width=13


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
