import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.diag(a) * b


def get_inputs():
    return [torch.randn(16, 16), torch.randn(16)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.diag of a matrix (taking its diagonal) in forward() is not supported yet
