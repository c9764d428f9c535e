import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """fp16 SDPA with a boolean key-padding mask [B, 1, 1, S] (True = attend) broadcast over heads and
    queries, on [B, L, H, E] inputs transposed to [B, H, L, E] in get_inputs() (non-contiguous)."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, keep):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)


batch_size = 16
seq_len = 2000
num_heads = 16
head_dim = 64

# cpu-shrink: --set batch_size=2 --set seq_len=41 --set num_heads=2 --set head_dim=20


def get_inputs():
    shape = (batch_size, seq_len, num_heads, head_dim)
    q, k, v = (torch.randn(shape, dtype=torch.float16).transpose(1, 2) for _ in range(3))
    keep = torch.rand(batch_size, 1, 1, seq_len) > 0.25
    return [q, k, v, keep]


def get_init_inputs():
    return []
