import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x[x > 0]


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: indexing with a boolean mask gives a result whose size depends on the data
