import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.frac(x.long())


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: frac of a torch.int64 tensor is not supported
