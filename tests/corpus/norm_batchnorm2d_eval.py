import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm2d switched to eval mode in __init__, with running statistics loaded by hand: normalises with
    the running statistics, updates nothing."""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        nn.init.normal_(self.bn.weight, mean=1.0, std=0.2)
        self.bn.running_mean.normal_(0.0, 0.5)
        self.bn.running_var.uniform_(0.5, 2.0)
        self.bn.eval()

    def forward(self, x):
        return self.bn(x)


batch_size = 256
channels = 128
height = 128
width = 128

# cpu-shrink: --set batch_size=3 --set channels=7 --set height=23 --set width=29


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
