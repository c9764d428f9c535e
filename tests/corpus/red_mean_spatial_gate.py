import torch
import torch.nn as nn


class Model(nn.Module):
    """Squeeze-excite-like gate: mean over (H, W) with keepdim, sigmoid, multiply back."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        s = x.mean(dim=(2, 3), keepdim=True)
        return x * torch.sigmoid(s)


batch_size = 256
channels = 256
height = 64
width = 64

# cpu-shrink: --set batch_size=2 --set channels=7 --set height=13 --set width=19


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
