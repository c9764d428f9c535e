import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(6, 8, 3, groups=4)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 6, 10)]


def get_init_inputs():
    return []
# expect-error: 9:21: nn.Conv1d: in_channels must be divisible by groups
