import torch
import torch.nn as nn


class Model(nn.Module):
    """Hinge loss per row then averaged: relu(1 - y * f).mean(dim=1) on a column-broadcast target, transposed scores."""

    def __init__(self):
        super().__init__()

    def forward(self, scores_t, targets):
        margins = torch.relu(1 - scores_t.t() * targets)
        return margins.mean(dim=1)


batch_size = 16384
dim = 16384

# cpu-shrink: --set batch_size=37 --set dim=131


def get_inputs():
    return [torch.randn(dim, batch_size), torch.randint(0, 2, (batch_size, 1)).float() * 2 - 1]


def get_init_inputs():
    return []
