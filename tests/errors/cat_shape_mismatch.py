import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.cat([x, x.t()], dim=1)


def get_inputs():
    return [torch.randn(4, 6)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.cat: tensors [4, 6] and [6, 4] do not fit together along dim 1
