import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 16, 3, padding=1, padding_mode="reflect")

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 8, 10, 10)]


def get_init_inputs():
    return []
# expect-error: 9:21: nn.Conv2d: padding_mode='reflect' is not supported (only 'zeros')
