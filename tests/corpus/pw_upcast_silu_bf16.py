import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """Upcasts bf16 input to fp32, computes x * sigmoid(x) + 1, and casts back to bf16."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        h = x.float()
        h = h * torch.sigmoid(h) + 1.0
        return h.to(torch.bfloat16)


batch_size = 32
channels = 512
length = 8192

# cpu-shrink: --set batch_size=2 --set channels=13 --set length=157


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
