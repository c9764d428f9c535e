import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.pad(x, (1, 1), mode="symmetric")


def get_inputs():
    return [torch.randn(2, 3, 8)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.pad: unrecognised padding mode 'symmetric'
