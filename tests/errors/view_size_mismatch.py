import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.view(3, -1)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: shape [3, -1] is invalid for input of size 16
