import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Linear(bias=False) on a 3-D input, then exact GELU."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.proj = nn.Linear(in_features, out_features, bias=False)

    def forward(self, x):
        return F.gelu(self.proj(x))


batch_size = 8
seq_len = 1024
in_features = 4096
out_features = 4096

# cpu-shrink: --set batch_size=2 --set seq_len=19 --set in_features=50 --set out_features=37


def get_inputs():
    return [torch.randn(batch_size, seq_len, in_features)]


def get_init_inputs():
    return [in_features, out_features]
