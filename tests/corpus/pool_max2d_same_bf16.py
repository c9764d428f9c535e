import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """nn.MaxPool2d(3, stride=1, padding=1) ('same' pooling, -inf padding) on bf16 activations."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(3, stride=1, padding=1)

    def forward(self, x):
        return self.pool(x)


batch_size = 32
channels = 64
height = 256
width = 256

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=19 --set width=23


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
