import torch
import torch.nn as nn


class Model(nn.Module):
    """Layer norm by hand: mean, biased variance as mean((x - mean) ** 2), normalise, affine."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.empty(dim))
        self.beta = nn.Parameter(torch.empty(dim))
        nn.init.ones_(self.gamma)
        nn.init.constant_(self.beta, 0.0)

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
        x_hat = (x - mean) / torch.sqrt(var + self.eps)
        return x_hat * self.gamma + self.beta


batch_size = 7
seq_len = 7
dim = 7

# cpu-shrink: --set batch_size=2 --set seq_len=15 --set dim=163


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim)]


def get_init_inputs():
    return [dim]
