import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.exp(x, 2.0)


def get_inputs():
    return [torch.randn(3, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: exp() takes at most 1 positional arguments (2 given)
