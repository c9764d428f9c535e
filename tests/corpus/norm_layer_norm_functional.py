import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.layer_norm with hand-made weight and bias parameters and a keyword eps, over one long row dim."""

    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.bias = nn.Parameter(torch.randn(dim) * 0.1)

    def forward(self, x):
        return F.layer_norm(x, (x.shape[-1],), self.weight, self.bias, eps=1e-6)


batch_size = 16384
dim = 32768

# cpu-shrink: --set batch_size=11 --set dim=1201


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
