import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.elu, F.hardtanh, F.softsign, F.mish and F.softplus (default beta 1, threshold 20) of a [seq, batch, hidden]
    input permuted to [batch, seq, hidden] in forward (non-contiguous), added to a contiguous one; the scales reach
    every branch."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = x.permute(1, 0, 2)
        return y + F.elu(x * 2.0) + F.hardtanh(x * 3.0) - F.softsign(x) + 0.5 * F.mish(x * 4.0) + F.softplus(x * 8.0)


seq_len = 1023
batch_size = 65
hidden = 4093

# cpu-shrink: --set seq_len=11 --set batch_size=3 --set hidden=251


def get_inputs():
    x = torch.randn(seq_len, batch_size, hidden)
    y = torch.randn(batch_size, seq_len, hidden)
    return [x, y]


def get_init_inputs():
    return []
