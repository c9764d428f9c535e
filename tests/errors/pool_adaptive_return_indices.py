import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.adaptive_max_pool1d(x, 4, return_indices=True)[0]


def get_inputs():
    return [torch.randn(2, 3, 17)]


def get_init_inputs():
    return []
# expect-error: 8:16: adaptive_max_pool1d: return_indices=True is not supported
