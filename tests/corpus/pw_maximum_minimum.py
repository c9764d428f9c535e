import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.maximum / torch.minimum between tensors and against a per-feature floor (torch.full)."""

    def __init__(self, dim, floor=-0.5):
        super().__init__()
        self.floor = nn.Parameter(torch.full((dim,), floor))

    def forward(self, x, y):
        hi = torch.maximum(x, y)
        lo = torch.minimum(x, y * 0.5)
        return torch.maximum(hi - lo, self.floor)


batch_size = 16384
dim = 8192

# cpu-shrink: --set batch_size=39 --set dim=113


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
