import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """nn.Softsign() on bf16 activations shaped [batch, seq, hidden]."""

    def __init__(self):
        super().__init__()
        self.act = nn.Softsign()

    def forward(self, x):
        return self.act(x)


batch_size = 128
seq_len = 2048
hidden = 2048

# cpu-shrink: --set batch_size=3 --set seq_len=29 --set hidden=151


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
