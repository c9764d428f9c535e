import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4, max_norm=1.0)

    def forward(self, x, idx):
        return self.emb(idx)


def get_inputs():
    return [torch.randn(4, 6), torch.randint(0, 10, (3,))]


def get_init_inputs():
    return []
# expect-error: 9:20: nn.Embedding with max_norm renormalizes the weight rows
