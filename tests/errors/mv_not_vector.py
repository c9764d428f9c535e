import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.mv(a, b)


def get_inputs():
    return [torch.randn(8, 16), torch.randn(16, 1)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.mv expects a 2-D matrix and a 1-D vector, got [8, 16] and [16, 1]
