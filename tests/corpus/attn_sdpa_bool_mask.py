import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SDPA with a boolean [L, S] mask (True = attend) shared by every batch and head, L != S, fp32."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, mask):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


batch_size = 4
num_heads = 8
q_len = 1024
kv_len = 3072
head_dim = 64

# cpu-shrink: --set batch_size=2 --set num_heads=2 --set q_len=33 --set kv_len=50 --set head_dim=20


def get_inputs():
    q = torch.randn(batch_size, num_heads, q_len, head_dim)
    k = torch.randn(batch_size, num_heads, kv_len, head_dim)
    v = torch.randn(batch_size, num_heads, kv_len, head_dim)
    mask = torch.rand(q_len, kv_len) > 0.3
    return [q, k, v, mask]


def get_init_inputs():
    return []
