import torch
import torch.nn as nn


class Model(nn.Module):
    """Multi-label hinge loss written with torch.clamp(1 - y * f, min=0) on transposed scores, with +-1 float
    targets: reduction 'none' (the clamped margins) and 'sum'."""

    def __init__(self):
        super().__init__()

    def forward(self, scores_t, targets):
        margins = torch.clamp(1 - scores_t.t() * targets, min=0)
        return margins, torch.sum(margins)


batch_size = 16383
num_labels = 16384

# cpu-shrink: --set batch_size=37 --set num_labels=131


def get_inputs():
    return [torch.randn(num_labels, batch_size), torch.randint(0, 2, (batch_size, num_labels)).float() * 2 - 1]


def get_init_inputs():
    return []
