import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.select(0, 4)


def get_inputs():
    return [torch.randn(4, 6)]


def get_init_inputs():
    return []
# expect-error: 7:16: select: index 4 is out of range for a dim of size 4
