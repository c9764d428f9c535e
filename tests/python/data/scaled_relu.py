# A small reference problem for the harness tests: y = relu(x) * scale + bias, on odd sizes.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.scale = nn.Parameter(torch.randn(features))
        self.bias = nn.Parameter(torch.randn(features))

    def forward(self, x):
        return torch.relu(x) * self.scale + self.bias


batch, features = 37, 53


def get_inputs():
    return [torch.randn(batch, features)]


def get_init_inputs():
    return [features]
