import torch
import torch.nn as nn


class Model(nn.Module):
    """Whole-tensor 2-norms spelled three ways: torch.linalg.norm(x), x.norm() and torch.norm(x), combined."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        scale = torch.linalg.norm(x) + x.norm() * 0.5
        return y * (scale / torch.norm(y))


rows = 32768
cols = 8192

# cpu-shrink: --set rows=67 --set cols=131


def get_inputs():
    return [torch.randn(rows, cols), torch.rand(rows, cols)]


def get_init_inputs():
    return []
