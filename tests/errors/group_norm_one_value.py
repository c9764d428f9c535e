import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.group_norm(x, 4)


def get_inputs():
    return [torch.randn(1, 4)]


def get_init_inputs():
    return []
# expect-error: 8:16: group_norm: expected more than 1 value per channel when training
