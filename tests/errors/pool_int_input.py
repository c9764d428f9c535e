import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.max_pool1d(x, 2)


def get_inputs():
    return [torch.randint(0, 10, (2, 3, 8))]


def get_init_inputs():
    return []
# expect-error: 8:16: max_pool1d of a torch.int64 tensor is not supported
