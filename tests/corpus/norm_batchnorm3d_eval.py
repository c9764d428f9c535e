import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm3d in eval mode (set in __init__) on [N, C, D, H, W] volumes, with re-drawn affine parameters
    and running statistics: normalises with the running statistics, updates nothing; then a residual add."""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm3d(channels)
        nn.init.normal_(self.bn.weight, mean=1.0, std=0.3)
        nn.init.normal_(self.bn.bias, std=0.3)
        self.bn.running_mean.uniform_(-1.0, 1.0)
        self.bn.running_var.uniform_(0.5, 3.0)
        self.bn.eval()

    def forward(self, x):
        return x + self.bn(x)


batch_size = 16
channels = 48
depth = 33
height = 127
width = 129

# cpu-shrink: --set batch_size=2 --set channels=5 --set depth=3 --set height=19 --set width=21


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return [channels]
