import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.MaxPool2d(3, stride=2, padding=1, return_indices=True): the values and their int64 argmax indices."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(3, stride=2, padding=1, return_indices=True)

    def forward(self, x):
        values, indices = self.pool(x)
        return values, indices


batch_size = 128
channels = 64
height = 255
width = 256

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=19 --set width=22


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
