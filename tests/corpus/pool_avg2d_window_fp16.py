import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """nn.AvgPool2d(4, stride=2, padding=2) on fp16 activations: fp32 accumulation, one rounding at the end."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d(4, stride=2, padding=2)

    def forward(self, x):
        return self.pool(x)


batch_size = 32
channels = 64
height = 383
width = 384

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=21 --set width=26


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.float16)]


def get_init_inputs():
    return []
