import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return (x > 0).fmod(x < 1)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:17: fmod of bool tensors is not supported (PyTorch implements it for numbers only)
