import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.instance_norm(x)


def get_inputs():
    return [torch.randn(2, 4, 1)]


def get_init_inputs():
    return []
# expect-error: 8:16: instance_norm: expected more than 1 spatial element when training
