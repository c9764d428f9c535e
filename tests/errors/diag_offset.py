import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.diag(a, 1) @ b


def get_inputs():
    return [torch.randn(16), torch.randn(17, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.diag with diagonal != 0 in forward() is not supported yet
