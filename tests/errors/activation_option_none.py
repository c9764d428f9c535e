import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = nn.ELU(None)

    def forward(self, x):
        return self.m(x)


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return []
# expect-error: 8:18: nn.ELU alpha: expected a number, got NoneType
