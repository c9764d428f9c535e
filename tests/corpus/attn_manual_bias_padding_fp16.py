import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """fp16 attention written out with both mask kinds: a float per-head bias [1, H, L, S] added to the scaled
    scores, then a boolean key-padding mask [B, 1, 1, S] applied with masked_fill(~keep, -inf), softmax, @ v."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, bias, keep):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + bias
        scores = scores.masked_fill(~keep, float("-inf"))
        return F.softmax(scores, dim=-1) @ v


batch_size = 16
num_heads = 12
q_len = 1000
kv_len = 2000
head_dim = 64

# cpu-shrink: --set batch_size=2 --set num_heads=2 --set q_len=19 --set kv_len=43 --set head_dim=20


def get_inputs():
    q = torch.randn(batch_size, num_heads, q_len, head_dim, dtype=torch.float16)
    k = torch.randn(batch_size, num_heads, kv_len, head_dim, dtype=torch.float16)
    v = torch.randn(batch_size, num_heads, kv_len, head_dim, dtype=torch.float16)
    bias = torch.randn(1, num_heads, q_len, kv_len, dtype=torch.float16)
    keep = torch.rand(batch_size, 1, 1, kv_len) > 0.25
    return [q, k, v, bias, keep]


def get_init_inputs():
    return []
