import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """torch.std (unbiased) over the spatial dims of a bf16 NCHW tensor, per channel, and its correction=0 twin."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.std(x, dim=(2, 3)), x.std(dim=[2, 3], correction=0, keepdim=True)


batch_size = 64
channels = 128
height = 112
width = 120

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=9 --set width=13


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
