# args: --set batchsize=4
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x * 2


batch_size = 16


def get_inputs():
    return [torch.randn(batch_size, 4)]


def get_init_inputs():
    return []
# expect-error: 1:1: --set: no module-level constant named 'batchsize'
