import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """GPT-style attention written out: q @ k^T / sqrt(d), a causal mask kept as a registered tril buffer and
    applied with masked_fill(-inf), softmax, @ v; fp32."""

    def __init__(self, seq_len):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones(seq_len, seq_len)).view(1, 1, seq_len, seq_len))

    def forward(self, q, k, v):
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias == 0, float("-inf"))
        att = torch.softmax(att, dim=-1)
        return att @ v


batch_size = 8
num_heads = 12
seq_len = 1024
head_dim = 64

# cpu-shrink: --set batch_size=2 --set num_heads=2 --set seq_len=37 --set head_dim=20


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape), torch.randn(shape), torch.randn(shape)]


def get_init_inputs():
    return [seq_len]
