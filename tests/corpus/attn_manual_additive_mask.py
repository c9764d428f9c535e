import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Attention written out with an additive padding mask: softmax(q @ k^T / sqrt(d) + mask) @ v, the mask
    [B, 1, 1, S] broadcast over heads and queries, L != S, fp32."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, mask):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        probs = F.softmax(scores + mask, dim=-1)
        return torch.matmul(probs, v)


batch_size = 16
num_heads = 8
q_len = 512
kv_len = 2048
head_dim = 64

# cpu-shrink: --set batch_size=2 --set num_heads=2 --set q_len=19 --set kv_len=53 --set head_dim=20


def get_inputs():
    q = torch.randn(batch_size, num_heads, q_len, head_dim)
    k = torch.randn(batch_size, num_heads, kv_len, head_dim)
    v = torch.randn(batch_size, num_heads, kv_len, head_dim)
    mask = torch.randn(batch_size, 1, 1, kv_len)
    return [q, k, v, mask]


def get_init_inputs():
    return []
