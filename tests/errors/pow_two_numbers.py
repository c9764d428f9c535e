import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.pow(2.0, 3.0) * x


def get_inputs():
    return [torch.randn(3, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: pow: expected a tensor operand
