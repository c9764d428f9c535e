import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SDPA with scale= given, an odd head dim (80, padded to 128 in the kernel), a value head dim different
    from the query's, and fewer queries than keys, fp32."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, scale=0.05)


batch_size = 4
num_heads = 12
q_len = 1000
kv_len = 1900
head_dim = 80
value_dim = 48

# cpu-shrink: --set batch_size=2 --set num_heads=2 --set q_len=29 --set kv_len=43 --set head_dim=20 --set value_dim=17


def get_inputs():
    q = torch.randn(batch_size, num_heads, q_len, head_dim)
    k = torch.randn(batch_size, num_heads, kv_len, head_dim)
    v = torch.randn(batch_size, num_heads, kv_len, value_dim)
    return [q, k, v]


def get_init_inputs():
    return []
