import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.fmod(2.0)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.fmod is not supported yet
