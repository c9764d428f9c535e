import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """Attention written with torch.bmm on 3-D bf16 tensors, the query scaled before the product and a
    boolean mask applied with torch.where(mask, scores, -inf)."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, keep):
        scores = torch.bmm(q * 0.125, k.transpose(1, 2))
        scores = torch.where(keep, scores, float("-inf"))
        return torch.bmm(scores.softmax(dim=-1), v)


batch_size = 256
seq_len = 1024
head_dim = 64

# cpu-shrink: --set batch_size=3 --set seq_len=37 --set head_dim=20


def get_inputs():
    q = torch.randn(batch_size, seq_len, head_dim, dtype=torch.bfloat16)
    k = torch.randn(batch_size, seq_len, head_dim, dtype=torch.bfloat16)
    v = torch.randn(batch_size, seq_len, head_dim, dtype=torch.bfloat16)
    keep = torch.rand(batch_size, seq_len, seq_len) > 0.2
    return [q, k, v, keep]


def get_init_inputs():
    return []
