import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """fp32 SDPA with an additive float mask of shape [1, H, L, S] (a per-head position bias broadcast over
    the batch), default scale, L != S."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, bias):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)


batch_size = 16
num_heads = 8
q_len = 1024
kv_len = 1536
head_dim = 64

# cpu-shrink: --set batch_size=2 --set num_heads=2 --set q_len=19 --set kv_len=37 --set head_dim=20


def get_inputs():
    q = torch.randn(batch_size, num_heads, q_len, head_dim)
    k = torch.randn(batch_size, num_heads, kv_len, head_dim)
    v = torch.randn(batch_size, num_heads, kv_len, head_dim)
    bias = torch.randn(1, num_heads, q_len, kv_len)
    return [q, k, v, bias]


def get_init_inputs():
    return []
