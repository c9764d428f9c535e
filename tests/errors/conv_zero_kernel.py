import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, w):
        return F.conv2d(x, w, stride=2, padding=2)


def get_inputs():
    return [torch.randn(2, 4, 13, 10), torch.randn(3, 4, 0, 5)]


def get_init_inputs():
    return []
# expect-error: 12:40: a tensor of size [3, 4, 0, 5]: tensors with no elements are not supported
