import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 10, 10)]


def get_init_inputs():
    return []
# expect-error: 12:16: nn.Conv2d: the input has 4 channels, but the weight [16, 3, 3, 3] with groups=1 expects 3
