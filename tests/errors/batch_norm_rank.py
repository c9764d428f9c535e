import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(8)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(2, 8, 5)]


def get_init_inputs():
    return []
# expect-error: 11:16: nn.BatchNorm2d expects a 4-D input, got [2, 8, 5]
