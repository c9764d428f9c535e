import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.lerp(x, x.half(), 0.5)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: lerp: end must have the input's dtype
