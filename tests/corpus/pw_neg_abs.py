import torch
import torch.nn as nn


class Model(nn.Module):
    """Unary minus, torch.neg, torch.abs and Tensor.abs on a 3-D tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        return -x + torch.abs(y) - torch.neg(x * y).abs()


batch_size = 64
seq_len = 2048
dim = 1024

# cpu-shrink: --set batch_size=3 --set seq_len=37 --set dim=45


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim), torch.randn(batch_size, seq_len, dim)]


def get_init_inputs():
    return []
