import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.InstanceNorm2d(8, track_running_stats=True)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(2, 8, 5, 5)]


def get_init_inputs():
    return []
# expect-error: 8:21: nn.InstanceNorm2d with track_running_stats=True is not supported
