import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.scaled_dot_product_attention on [B, H, L, E] fp32 tensors: no mask, default scale 1/sqrt(E)."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)


batch_size = 4
num_heads = 16
seq_len = 2048
head_dim = 64

# cpu-shrink: --set batch_size=2 --set num_heads=2 --set seq_len=37 --set head_dim=20


def get_inputs():
    shape = (batch_size, num_heads, seq_len, head_dim)
    return [torch.randn(shape), torch.randn(shape), torch.randn(shape)]


def get_init_inputs():
    return []
