import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2, return_indices=True)

    def forward(self, x):
        values, indices = self.pool(x)
        return values


def get_inputs():
    return [torch.randn(2, 3, 8, 8)]


def get_init_inputs():
    return []
# expect-error: 11:27: max_pool2d: return_indices=True is not supported
