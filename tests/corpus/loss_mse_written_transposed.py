import torch
import torch.nn as nn


class Model(nn.Module):
    """MSE written out, torch.mean((a - b) ** 2), with the target given transposed (non-contiguous)."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets_t):
        return torch.mean((predictions - targets_t.t()) ** 2)


batch_size = 16384
dim = 8192

# cpu-shrink: --set batch_size=37 --set dim=133


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(dim, batch_size)]


def get_init_inputs():
    return []
