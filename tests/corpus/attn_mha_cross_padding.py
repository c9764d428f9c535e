import torch
import torch.nn as nn


class Model(nn.Module):
    """Cross-attention with nn.MultiheadAttention (sequence-first [L, N, E] inputs): queries attend over a padded
    memory (a boolean key_padding_mask, True = padding), returning the output and the head-averaged attention
    weights (need_weights defaults to True)."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(embed_dim, num_heads)

    def forward(self, queries, memory, padding):
        return self.attn(queries, memory, memory, key_padding_mask=padding)


batch_size = 8
query_len = 256
memory_len = 1024
embed_dim = 512
num_heads = 8

# cpu-shrink: --set batch_size=2 --set query_len=19 --set memory_len=41 --set embed_dim=40 --set num_heads=2


def get_inputs():
    lengths = torch.randint(memory_len // 2, memory_len + 1, (batch_size, 1))
    return [torch.randn(query_len, batch_size, embed_dim), torch.randn(memory_len, batch_size, embed_dim),
            torch.arange(memory_len)[None, :] >= lengths]


def get_init_inputs():
    return [embed_dim, num_heads]
