import torch
import torch.nn as nn


class Model(nn.Module):
    """MobileNetV3-style gate: nn.Hardsigmoid() of a per-channel mean, multiplied back."""

    def __init__(self):
        super().__init__()
        self.gate = nn.Hardsigmoid()

    def forward(self, x):
        s = x.mean(dim=(2, 3), keepdim=True)
        return x * self.gate(s * 8.0)


batch_size = 256
channels = 256
height = 96
width = 96

# cpu-shrink: --set batch_size=3 --set channels=7 --set height=19 --set width=23


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
