import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=True)


def get_inputs():
    return [torch.randn(2, 4, 8, 16), torch.randn(2, 4, 8, 16), torch.randn(2, 4, 8, 16), torch.rand(8, 8) > 0.5]


def get_init_inputs():
    return []
# expect-error: 8:16: attn_mask and is_causal=True cannot be given together
