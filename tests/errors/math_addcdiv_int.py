import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.addcdiv(x.long(), x.long(), x.long())


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: addcdiv of integer tensors is not supported
