import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.HuberLoss(reduction="batchmean")

    def forward(self, a, b):
        return self.loss(a, b)


def get_inputs():
    return [torch.randn(4, 4), torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 12:16: F.huber_loss: reduction='batchmean' is not a valid value
