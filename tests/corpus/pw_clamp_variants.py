import torch
import torch.nn as nn


class Model(nn.Module):
    """clamp with only min, only max, both (keyword and positional), torch and Tensor spellings."""

    def __init__(self, lo: float = -1.0, hi: float = 1.0):
        super().__init__()
        self.lo = lo
        self.hi = hi

    def forward(self, x):
        a = torch.clamp(x, min=self.lo)
        b = x.clamp(max=0.5)
        c = torch.clamp(x, self.lo, self.hi)
        d = (x * 3.0).clamp(min=0.0, max=6.0)
        return a + b - c * d


batch_size = 8192
dim = 16384

# cpu-shrink: --set batch_size=27 --set dim=149


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [-2.0, 2.0]
