import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(8, 16), torch.randn(17, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: cannot be multiplied (16 != 17)
