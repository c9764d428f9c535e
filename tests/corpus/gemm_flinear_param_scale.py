import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.linear with hand-made parameters (kaiming_uniform_ weight, zero bias) and a keyword scale."""

    def __init__(self, in_features, out_features, scale=1.0):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.zeros(out_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        self.scale = scale

    def forward(self, x):
        return F.linear(x, self.weight, self.bias) * self.scale


batch_size = 4096
in_features = 2048
out_features = 6144

# cpu-shrink: --set batch_size=29 --set in_features=43 --set out_features=53


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, 0.5]
