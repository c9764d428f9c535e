import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.TransformerEncoderLayer as PyTorch defines it (post-norm, relu feed-forward, batch_first) with dropout=0.0,
    and a causal boolean src_mask (True = masked)."""

    def __init__(self, d_model, nhead, dim_feedforward):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout=0.0, batch_first=True)

    def forward(self, x, causal):
        return self.layer(x, src_mask=causal)


batch_size = 32
seq_len = 512
d_model = 512
nhead = 8
dim_feedforward = 2048

# cpu-shrink: --set batch_size=2 --set seq_len=23 --set d_model=40 --set nhead=2 --set dim_feedforward=70


def get_inputs():
    return [torch.randn(batch_size, seq_len, d_model), torch.ones(seq_len, seq_len, dtype=torch.bool).triu(1)]


def get_init_inputs():
    return [d_model, nhead, dim_feedforward]
