import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.pad(x, (-1, 2), mode="reflect")


def get_inputs():
    return [torch.randn(2, 3, 8)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.pad: negative padding (cropping) with mode 'reflect' is not supported
