import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.cummax(x, 1)


def get_inputs():
    return [torch.randn(4, 6)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.cummax is not supported
