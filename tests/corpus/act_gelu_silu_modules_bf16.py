import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """nn.GELU() (exact), nn.GELU(approximate='tanh') and nn.SiLU() modules on bf16 [batch, seq, hidden] activations."""

    def __init__(self):
        super().__init__()
        self.gelu = nn.GELU()
        self.gelu_tanh = nn.GELU(approximate="tanh")
        self.silu = nn.SiLU()

    def forward(self, x, y):
        return self.gelu(x) * self.silu(y) + self.gelu_tanh(y)


batch_size = 96
seq_len = 2047
hidden = 2731

# cpu-shrink: --set batch_size=2 --set seq_len=19 --set hidden=229


def get_inputs():
    x = torch.randn(batch_size, seq_len, hidden, dtype=torch.bfloat16)
    y = torch.randn(batch_size, seq_len, hidden, dtype=torch.bfloat16)
    return [x, y]


def get_init_inputs():
    return []
