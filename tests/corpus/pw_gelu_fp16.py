import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """GELU plus a scaled skip, entirely in half precision."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.gelu(x) + x * 0.5


batch_size = 32768
dim = 16384

# cpu-shrink: --set batch_size=37 --set dim=139


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=torch.float16)]


def get_init_inputs():
    return []
