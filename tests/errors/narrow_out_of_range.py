import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.narrow(1, 4, 3)


def get_inputs():
    return [torch.randn(4, 6)]


def get_init_inputs():
    return []
# expect-error: 7:16: narrow: start (4) + length (3) exceeds the dim's size (6)
