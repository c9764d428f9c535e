import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, w):
        return F.conv2d(x.half(), w)


def get_inputs():
    return [torch.randn(2, 4, 10, 10), torch.randn(8, 4, 3, 3)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.conv2d: the input (torch.float16) and the weight (torch.float32) must have the same dtype
