import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x / torch.linalg.norm(x, ord="nuc")


def get_inputs():
    return [torch.randn(6, 7)]


def get_init_inputs():
    return []
# expect-error: 7:20: torch.linalg.norm: the matrix norm ord='nuc' is not supported (only 'fro')
