import torch
import torch.nn as nn


class Model(nn.Module):
    """Elementwise comparisons feeding torch.where and a float mask."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        picked = torch.where(x > y, x, y * 0.1)
        negative = (x < 0).float()
        return picked + negative * 0.5


batch_size = 16384
dim = 8192

# cpu-shrink: --set batch_size=35 --set dim=133


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
