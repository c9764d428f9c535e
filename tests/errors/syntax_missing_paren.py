# expect-error: 8:26: '(' was never closed
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x * (2.0 + 1.0)


def get_inputs():
    return [torch.randn(4, 4)]
