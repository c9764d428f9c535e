import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.LayerNorm over the hidden dim of [batch, seq, hidden], weights re-drawn with nn.init.normal_."""

    def __init__(self, hidden):
        super().__init__()
        self.ln = nn.LayerNorm(hidden)
        nn.init.normal_(self.ln.weight, mean=1.0, std=0.1)
        nn.init.normal_(self.ln.bias, std=0.1)

    def forward(self, x):
        return self.ln(x)


batch_size = 128
seq_len = 2048
hidden = 2048

# cpu-shrink: --set batch_size=3 --set seq_len=29 --set hidden=151


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden)]


def get_init_inputs():
    return [hidden]
