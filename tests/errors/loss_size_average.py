import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, a, b):
        return F.mse_loss(a, b, size_average=False)


def get_inputs():
    return [torch.randn(4, 4), torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.mse_loss: the deprecated size_average= argument is not supported; use reduction=
