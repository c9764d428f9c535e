import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.div(x.int(), 0, rounding_mode='floor')


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: floor_divide: integer division by zero
