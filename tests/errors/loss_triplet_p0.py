import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, a, p, n):
        return F.triplet_margin_loss(a, p, n, p=0)


def get_inputs():
    return [torch.randn(4, 8), torch.randn(4, 8), torch.randn(4, 8)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.triplet_margin_loss: p=0 is not supported
