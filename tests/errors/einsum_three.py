import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.einsum("ij,jk,kl->il", a, b, b)


def get_inputs():
    return [torch.randn(16, 16), torch.randn(16, 16)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.einsum of more than two operands is not supported yet
