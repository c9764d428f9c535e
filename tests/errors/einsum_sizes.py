import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.einsum("ij,jk->ik", a, b)


def get_inputs():
    return [torch.randn(16, 8), torch.randn(16, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: subscript 'j' has sizes 8 and 16
