import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=m)


def get_inputs():
    return [torch.randn(2, 4, 8, 16), torch.randn(2, 4, 8, 16), torch.randn(2, 4, 8, 16), torch.randint(0, 2, (8, 8))]


def get_init_inputs():
    return []
# expect-error: 8:16: attn_mask must be bool or the query
