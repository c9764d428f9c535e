import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.triplet_margin_loss(swap=True, margin=0.5, reduction='none'): the negative distance is min(d(a, n), d(p, n))."""

    def __init__(self):
        super().__init__()

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=0.5, swap=True, reduction="none")


batch_size = 65536
dim = 2048

# cpu-shrink: --set batch_size=41 --set dim=67


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim) * 0.5, torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
