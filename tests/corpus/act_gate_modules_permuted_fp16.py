import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """nn.Sigmoid, nn.Tanh and F.sigmoid on fp16 channels-last activations permuted to NCHW in forward
    (non-contiguous)."""

    def __init__(self):
        super().__init__()
        self.gate = nn.Sigmoid()
        self.squash = nn.Tanh()

    def forward(self, x):
        x = x.permute(0, 3, 1, 2)
        return self.squash(x * 2.0) * self.gate(x) + F.sigmoid(-x)


batch_size = 64
height = 127
width = 129
channels = 509

# cpu-shrink: --set batch_size=2 --set height=7 --set width=9 --set channels=37


def get_inputs():
    return [torch.randn(batch_size, height, width, channels, dtype=torch.float16)]


def get_init_inputs():
    return []
