import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.long().fmod(2)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: fmod of torch.int64 tensors is not supported yet (floating tensors are)
