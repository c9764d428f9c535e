import torch
import torch.nn as nn
import torch.nn.functional as F


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        for layer in (self.w1, self.w2, self.w3):
            nn.init.normal_(layer.weight, mean=0.0, std=0.02)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Model(nn.Module):
    """Llama-style SwiGLU feed-forward as a nested module with normal_ re-initialised weights."""

    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.ffn = FeedForward(dim, hidden_dim)

    def forward(self, x):
        return self.ffn(x)


tokens = 4096
dim = 7
hidden_dim = 5632

# cpu-shrink: --set tokens=23 --set dim=27 --set hidden_dim=41


def get_inputs():
    return [torch.randn(tokens, dim)]


def get_init_inputs():
    return [dim, hidden_dim]
