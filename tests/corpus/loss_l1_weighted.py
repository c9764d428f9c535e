import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.l1_loss with an elementwise weight= (mean divides by the sum of the weights) and nn.L1Loss(reduction='sum')."""

    def __init__(self):
        super().__init__()
        self.l1 = nn.L1Loss(reduction="sum")

    def forward(self, predictions, targets, weights):
        weighted = F.l1_loss(predictions, targets, weight=weights)
        return weighted + 1e-6 * self.l1(predictions, targets)


batch_size = 8192
dim = 8192

# cpu-shrink: --set batch_size=31 --set dim=157


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim), torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
