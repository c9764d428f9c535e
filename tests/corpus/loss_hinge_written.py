import torch
import torch.nn as nn


class Model(nn.Module):
    """Hinge loss written out: torch.mean(torch.clamp(1 - predictions * targets, min=0)) with +-1 float targets."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


batch_size = 32768
dim = 8192

# cpu-shrink: --set batch_size=37 --set dim=251


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randint(0, 2, (batch_size, dim)).float() * 2 - 1]


def get_init_inputs():
    return []
