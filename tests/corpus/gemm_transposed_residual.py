import torch
import torch.nn as nn


class Model(nn.Module):
    """x @ W.t() + x: a square projection with a transposed weight operand and a residual epilogue."""

    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(dim, dim))
        nn.init.xavier_normal_(self.weight)

    def forward(self, x):
        return x @ self.weight.t() + x


batch_size = 4096
dim = 4096

# cpu-shrink: --set batch_size=41 --set dim=39


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
