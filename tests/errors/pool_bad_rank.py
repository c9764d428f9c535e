import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d((3, 3))

    def forward(self, x):
        return self.pool(x.flatten(1))


def get_inputs():
    return [torch.randn(2, 3, 8, 8)]


def get_init_inputs():
    return []
# expect-error: 11:16: adaptive_avg_pool2d: expected a 3-D or 4-D (batch mode) input, got a tensor of shape [2, 192]
