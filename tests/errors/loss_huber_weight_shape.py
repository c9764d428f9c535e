import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, a, b, w):
        return F.huber_loss(a, b, weight=w)


def get_inputs():
    return [torch.randn(4, 4), torch.randn(4, 4), torch.rand(4)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.huber_loss: weight must have the input's shape [4, 4], got [4]
