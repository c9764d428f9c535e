import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """fp16 causal attention written out: q @ k^T * (1 / sqrt(d)), the causal mask built in forward with
    torch.triu(torch.ones(..., dtype=torch.bool), diagonal=1) and applied by masked_fill(-inf), softmax, @ v."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        seq = q.size(-2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(q.size(-1)))
        future = torch.triu(torch.ones(seq, seq, dtype=torch.bool, device=q.device), diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))
        return torch.matmul(F.softmax(scores, dim=-1), v)


batch_size = 8
num_heads = 16
seq_len = 2047
head_dim = 128

# cpu-shrink: --set batch_size=2 --set num_heads=2 --set seq_len=37 --set head_dim=24


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape, dtype=torch.float16) for _ in range(3)]


def get_init_inputs():
    return []
