import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.layer_norm over the two trailing dims (heads, head_dim) with a [heads, head_dim] weight and bias, of
    [batch, heads, seq, head_dim] activations transposed to [batch, seq, heads, head_dim] (non-contiguous)."""

    def __init__(self, heads, head_dim):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(heads, head_dim) + 0.5)
        self.bias = nn.Parameter(torch.randn(heads, head_dim) * 0.1)

    def forward(self, x):
        x = x.transpose(1, 2)
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, eps=1e-6)


batch_size = 128
heads = 16
seq_len = 2047
head_dim = 96

# cpu-shrink: --set batch_size=2 --set heads=3 --set seq_len=37 --set head_dim=67


def get_inputs():
    return [torch.randn(batch_size, heads, seq_len, head_dim)]


def get_init_inputs():
    return [heads, head_dim]
