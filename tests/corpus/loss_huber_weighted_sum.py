import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.huber_loss(reduction='sum', delta=1.5, weight=w) with a per-element weight."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets, weight):
        return F.huber_loss(predictions, targets, reduction="sum", delta=1.5, weight=weight)


batch_size = 32768
dim = 8192

# cpu-shrink: --set batch_size=29 --set dim=163


def get_inputs():
    return [torch.randn(batch_size, dim) * 2, torch.randn(batch_size, dim), torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
