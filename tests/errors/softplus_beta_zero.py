import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.softplus(x, beta=0)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 8:16: softplus: beta must not be 0 (it divides the result)
