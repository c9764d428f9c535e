import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, y):
        return x + y


def get_inputs():
    return [torch.randn(4, 5), torch.randn(3)]


def get_init_inputs():
    return []
# expect-error: 7:16: shapes [4, 5] and [3] do not broadcast
