import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(features))

    def forward(self, x):
        return x * self.scale


def get_inputs():
    return [torch.randn(4, 16)]


def get_init_inputs():
    return [16, 32]
# expect-error: 6:5: Model.__init__ takes 1 argument but get_init_inputs() returns 2
