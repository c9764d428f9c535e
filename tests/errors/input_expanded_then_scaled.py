import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x + 1


def get_inputs():
    x = torch.randn(64, 1).t()
    return [x.expand(32, 64) * 2]


def get_init_inputs():
    return []
# expect-error: 10:1: get_inputs() returns x with a memory layout tritonize does not follow
