import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = nn.BatchNorm1d(4, eps=0.0)

    def forward(self, x):
        return self.m(x)


def get_inputs():
    return [torch.randn(8, 4)]


def get_init_inputs():
    return []
# expect-error: 11:16: batch_norm eps must be positive
