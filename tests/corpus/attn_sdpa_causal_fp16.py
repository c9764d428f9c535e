import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """Causal self-attention in fp16, head dim 128: is_causal=True lets the kernel stop at the diagonal."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


batch_size = 8
num_heads = 16
seq_len = 4096
head_dim = 128

# cpu-shrink: --set batch_size=1 --set num_heads=2 --set seq_len=45 --set head_dim=24


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape, dtype=torch.float16) for _ in range(3)]


def get_init_inputs():
    return []
