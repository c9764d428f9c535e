import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(3, 8)

    def forward(self, x):
        return self.gn(x)


def get_inputs():
    return [torch.randn(2, 8, 5, 5)]


def get_init_inputs():
    return []
# expect-error: 8:19: nn.GroupNorm: num_channels (8) must be divisible by num_groups (3)
