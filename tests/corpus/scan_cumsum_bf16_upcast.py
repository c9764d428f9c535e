import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """cumsum of bf16 input upcast to fp32 (dtype=torch.float32), along the middle dim, cast back to bf16."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.cumsum(x, dim=1, dtype=torch.float32).to(torch.bfloat16)


batch_size = 128
seq_len = 2049
hidden = 1024

# cpu-shrink: --set batch_size=3 --set seq_len=37 --set hidden=131


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
