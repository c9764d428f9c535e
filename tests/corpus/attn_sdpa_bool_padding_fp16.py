import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """fp16 SDPA with a boolean key-padding mask [B, 1, 1, S] (True = attend) broadcast over heads and
    queries; q, k, v stored [B, L, H, E] and transposed to [B, H, L, E] in forward, the output left
    [B, H, L, E]."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, keep):
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=keep)


batch_size = 16
seq_len = 2000
num_heads = 16
head_dim = 64

# cpu-shrink: --set batch_size=2 --set seq_len=41 --set num_heads=2 --set head_dim=20


def get_inputs():
    shape = (batch_size, seq_len, num_heads, head_dim)
    q, k, v = (torch.randn(shape, dtype=torch.float16) for _ in range(3))
    keep = torch.rand(batch_size, 1, 1, seq_len) > 0.25
    return [q, k, v, keep]


def get_init_inputs():
    return []
