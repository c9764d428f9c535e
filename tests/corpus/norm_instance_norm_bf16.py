import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """F.instance_norm of bf16 feature maps with a keyword eps (statistics in fp32, one rounding at the end)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.instance_norm(x, eps=1e-6)


batch_size = 256
channels = 128
height = 128
width = 128

# cpu-shrink: --set batch_size=2 --set channels=7 --set height=23 --set width=29


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
