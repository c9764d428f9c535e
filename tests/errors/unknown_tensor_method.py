import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.scatter_(0, x, x)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: Tensor.scatter_ is an in-place operation
