import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.linalg.norm(x, ord=2, dim=(0, 1))


def get_inputs():
    return [torch.randn(6, 7)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.linalg.norm: the matrix norm ord=2 is not supported (only 'fro')
