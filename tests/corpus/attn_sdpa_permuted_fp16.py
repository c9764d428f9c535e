import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """Non-contiguous inputs: [B, L, H, E] fp16 tensors viewed as [B, H, L, E] by transpose, causal SDPA,
    heads merged back with transpose + reshape."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        b, l, h, e = q.shape
        out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return out.transpose(1, 2).reshape(b, l, h * e)


batch_size = 64
seq_len = 2048
num_heads = 16
head_dim = 64

# cpu-shrink: --set batch_size=2 --set seq_len=37 --set num_heads=2 --set head_dim=20


def get_inputs():
    shape = (batch_size, seq_len, num_heads, head_dim)
    return [torch.randn(shape, dtype=torch.float16) for _ in range(3)]


def get_init_inputs():
    return []
