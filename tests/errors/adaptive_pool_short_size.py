import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = nn.AdaptiveAvgPool2d([4])

    def forward(self, x):
        return self.m(x)


def get_inputs():
    return [torch.randn(2, 3, 8, 8)]


def get_init_inputs():
    return []
# expect-error: 11:16: output_size must be an int or a tuple of 2 entries, got 1
