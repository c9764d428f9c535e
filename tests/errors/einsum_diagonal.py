import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.einsum("ii,ij->ij", a, b)


def get_inputs():
    return [torch.randn(16, 16), torch.randn(16, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: a repeated subscript in one operand
