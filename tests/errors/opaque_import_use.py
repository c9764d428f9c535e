import numpy as np
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x * np.pi


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 8:20: np.pi is not supported
