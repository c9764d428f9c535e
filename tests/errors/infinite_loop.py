import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        n = 0
        while True:
            n = n + 1
        return x


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 8:9: exceeded 1000000 steps
