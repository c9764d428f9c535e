import torch
import torch.nn as nn


class Model(nn.Module):
    """4-D tensor times a matrix over its last dim, spelled with einsum: 'bijl,lk->bijk'."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.einsum("bijl,lk->bijk", A, B)


b = 8
i = 64
j = 128
l = 512
k = 768

# cpu-shrink: --set b=2 --set i=3 --set j=7 --set l=20 --set k=19


def get_inputs():
    return [torch.randn(b, i, j, l), torch.randn(l, k)]


def get_init_inputs():
    return []
