import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Merges attention heads: [B, H, S, D] -> transpose(1, 2) -> contiguous -> view [B, S, H * D], then GELU."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        b, h, s, d = x.shape
        x = x.transpose(1, 2).contiguous().view(b, s, h * d)
        return F.gelu(x)


batch_size = 64
num_heads = 32
seq_len = 1024
head_dim = 128

# cpu-shrink: --set batch_size=2 --set num_heads=3 --set seq_len=37 --set head_dim=19


def get_inputs():
    return [torch.randn(batch_size, num_heads, seq_len, head_dim)]


def get_init_inputs():
    return []
