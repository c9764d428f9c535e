import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, q, k, v, m):
        return F.scaled_dot_product_attention(q, k, v, dropout_p=0.1)


def get_inputs():
    return [torch.randn(2, 4, 8, 16), torch.randn(2, 4, 8, 16), torch.randn(2, 4, 8, 16), torch.randn(8, 8)]


def get_init_inputs():
    return []
# expect-error: 8:16: with dropout_p > 0 is random: not supported
