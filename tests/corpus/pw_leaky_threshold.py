import torch
import torch.nn as nn


NEG_SLOPE = 0.01
THRESHOLD = 1.5


class Model(nn.Module):
    """Leaky ReLU via torch.where with a scalar branch; <=, ==, != masks cast with .to()."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.where(x >= 0, x, x * NEG_SLOPE)
        small = (y <= THRESHOLD).to(torch.float32)
        kept = (x == y).float() - (x != y).to(torch.float32)
        return torch.where(small > 0, y, 0.0) + kept


batch_size = 32
channels = 256
length = 16384

# cpu-shrink: --set batch_size=3 --set channels=7 --set length=211


def get_inputs():
    return [torch.randn(batch_size, channels, length)]


def get_init_inputs():
    return []
