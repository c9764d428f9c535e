import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 1

    def forward(self, x, idx):
        return x.index_select(1, idx)


def get_inputs():
    return [torch.randn(4, 6), torch.randint(0, 6, (2, 2))]


def get_init_inputs():
    return []
# expect-error: 12:16: torch.index_select(): Index is supposed to be a vector
