import torch
import torch.nn as nn
import torch.nn.functional as F


class MLPBlock(nn.Module):
    def __init__(self, dim, hidden_mult=4, approximate="none"):
        super().__init__()
        self.fc1 = nn.Linear(dim, dim * hidden_mult)
        self.fc2 = nn.Linear(dim * hidden_mult, dim)
        self.approximate = approximate

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x), approximate=self.approximate))


class Model(nn.Module):
    """Transformer feed-forward block as a nested submodule: x + fc2(gelu(fc1(x)))."""

    def __init__(self, dim, hidden_mult=4):
        super().__init__()
        self.mlp = MLPBlock(dim, hidden_mult=hidden_mult, approximate="tanh")

    def forward(self, x):
        return x + self.mlp(x)


batch_size = 8
seq_len = 1024
dim = 1024

# cpu-shrink: --set batch_size=2 --set seq_len=19 --set dim=21


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim)]


def get_init_inputs():
    return [dim]
