import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Token embedding of a language model: nn.Embedding rows (a padding_idx row zeroed at init) plus learned
    positions looked up with F.embedding, then nn.LayerNorm."""

    def __init__(self, vocab_size, hidden, max_positions):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, hidden, padding_idx=0)
        self.positions = nn.Parameter(torch.randn(max_positions, hidden) * 0.02)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, ids):
        positions = torch.arange(ids.size(1), device=ids.device)
        h = self.tokens(ids) + F.embedding(positions, self.positions)
        return self.norm(h)


batch_size = 32
seq_len = 2048
vocab_size = 50257
hidden = 1024
max_positions = 2048

# cpu-shrink: --set batch_size=3 --set seq_len=19 --set vocab_size=101 --set hidden=37 --set max_positions=23


def get_inputs():
    return [torch.randint(0, vocab_size, (batch_size, seq_len))]


def get_init_inputs():
    return [vocab_size, hidden, max_positions]
