import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """Causal attention on 3-D [B, L, E] bf16 tensors (no head dim), head dim 32, more queries than keys."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


batch_size = 256
q_len = 2048
kv_len = 1536
head_dim = 32

# cpu-shrink: --set batch_size=3 --set q_len=41 --set kv_len=35 --set head_dim=18


def get_inputs():
    q = torch.randn(batch_size, q_len, head_dim, dtype=torch.bfloat16)
    k = torch.randn(batch_size, kv_len, head_dim, dtype=torch.bfloat16)
    v = torch.randn(batch_size, kv_len, head_dim, dtype=torch.bfloat16)
    return [q, k, v]


def get_init_inputs():
    return []
