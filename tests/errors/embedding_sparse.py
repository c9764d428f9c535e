import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(10, 4))

    def forward(self, x, idx):
        return F.embedding(idx, self.w, sparse=True)


def get_inputs():
    return [torch.randn(4, 6), torch.randint(0, 10, (3,))]


def get_init_inputs():
    return []
# expect-error: 12:16: F.embedding(sparse=True): sparse gradients are not supported
