import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.leaky_relu(x.long(), 0.2)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 8:16: leaky_relu of a torch.int64 tensor is not supported
