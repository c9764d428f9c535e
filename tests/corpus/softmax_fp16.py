import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """Softmax of fp16 attention-like scores over the last dim."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


batch_size = 16
num_heads = 16
seq_len = 2048

# cpu-shrink: --set batch_size=2 --set num_heads=3 --set seq_len=41


def get_inputs():
    return [torch.randn(batch_size, num_heads, seq_len, seq_len, dtype=torch.float16)]


def get_init_inputs():
    return []
