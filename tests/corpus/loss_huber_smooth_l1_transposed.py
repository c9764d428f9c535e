import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.huber_loss(delta=0.75) with reduction='none' and 'sum', and nn.SmoothL1Loss(beta=0.75) (mean), against
    targets given as [D, B] and transposed in forward (non-contiguous)."""

    def __init__(self):
        super().__init__()
        self.smooth_l1 = nn.SmoothL1Loss(beta=0.75)

    def forward(self, predictions, targets_t):
        targets = targets_t.t()
        per_element = F.huber_loss(predictions, targets, reduction="none", delta=0.75)
        total = F.huber_loss(predictions, targets, reduction="sum", delta=0.75)
        return per_element, total, self.smooth_l1(predictions, targets)


batch_size = 16383
dim = 16384

# cpu-shrink: --set batch_size=37 --set dim=131


def get_inputs():
    return [torch.randn(batch_size, dim) * 2, torch.randn(dim, batch_size)]


def get_init_inputs():
    return []
