import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """nn.Mish() in an nn.Sequential on fp16 NCHW activations."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Mish())

    def forward(self, x):
        return self.body(x)


batch_size = 512
channels = 64
height = 128
width = 128

# cpu-shrink: --set batch_size=2 --set channels=5 --set height=31 --set width=33


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.float16)]


def get_init_inputs():
    return []
