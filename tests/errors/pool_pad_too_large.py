import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.avg_pool2d(x, kernel_size=3, stride=1, padding=2)


def get_inputs():
    return [torch.randn(2, 3, 8, 8)]


def get_init_inputs():
    return []
# expect-error: 8:16: avg_pool2d: pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1
