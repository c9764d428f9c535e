import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.flip(x, (1, -1))


def get_inputs():
    return [torch.randn(4, 6)]


def get_init_inputs():
    return []
# expect-error: 7:16: flip: dim 1 appears multiple times
