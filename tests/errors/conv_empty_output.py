import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, w):
        return F.conv3d(x, w, padding=2, dilation=5)


def get_inputs():
    return [torch.randn(2, 4, 3, 10, 10), torch.randn(8, 4, 3, 3, 3)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.conv3d: the output would be empty
