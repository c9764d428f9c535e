import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """silu(gate) * up on fp16 activations shaped [batch, seq, hidden]."""

    def __init__(self):
        super().__init__()

    def forward(self, gate, up):
        return F.silu(gate) * up


batch_size = 64
seq_len = 2048
hidden = 5632

# cpu-shrink: --set batch_size=2 --set seq_len=19 --set hidden=101


def get_inputs():
    gate = torch.randn(batch_size, seq_len, hidden, dtype=torch.float16)
    up = torch.randn(batch_size, seq_len, hidden, dtype=torch.float16)
    return [gate, up]


def get_init_inputs():
    return []
