import torch
import torch.nn as nn


class Model(nn.Module):
    """A pre-norm transformer encoder block built from nn.MultiheadAttention (batch_first, need_weights=False),
    nn.LayerNorm and a GELU feed-forward nn.Sequential, with residual adds."""

    def __init__(self, embed_dim, num_heads, ff_dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(embed_dim)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)
        self.norm2 = nn.LayerNorm(embed_dim)
        self.ff = nn.Sequential(nn.Linear(embed_dim, ff_dim), nn.GELU(), nn.Linear(ff_dim, embed_dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.ff(self.norm2(x))


batch_size = 16
seq_len = 1024
embed_dim = 768
num_heads = 12
ff_dim = 3072

# cpu-shrink: --set batch_size=2 --set seq_len=37 --set embed_dim=40 --set num_heads=2 --set ff_dim=90


def get_inputs():
    return [torch.randn(batch_size, seq_len, embed_dim)]


def get_init_inputs():
    return [embed_dim, num_heads, ff_dim]
