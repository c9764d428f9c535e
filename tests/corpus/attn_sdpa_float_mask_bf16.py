import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """SDPA with an additive float mask of shape [B, 1, L, S] (broadcast over heads) and an explicit
    scale=, in bf16."""

    def __init__(self, scale=0.1):
        super().__init__()
        self.scale = scale

    def forward(self, q, k, v, bias):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias, scale=self.scale)


batch_size = 32
num_heads = 16
seq_len = 2048
head_dim = 64

# cpu-shrink: --set batch_size=2 --set num_heads=3 --set seq_len=39 --set head_dim=20


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    q, k, v = (torch.randn(shape, dtype=torch.bfloat16) for _ in range(3))
    bias = torch.randn(batch_size, 1, seq_len, seq_len, dtype=torch.bfloat16)
    return [q, k, v, bias]


def get_init_inputs():
    return [0.1]
