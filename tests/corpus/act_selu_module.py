import torch
import torch.nn as nn


class Model(nn.Module):
    """A self-normalising block: nn.SELU() inside nn.Sequential after a per-feature scale."""

    def __init__(self, dim):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(dim) + 0.5)
        self.act = nn.Sequential(nn.SELU())

    def forward(self, x):
        return self.act(x * self.scale)


batch_size = 65536
dim = 8192

# cpu-shrink: --set batch_size=67 --set dim=203


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
