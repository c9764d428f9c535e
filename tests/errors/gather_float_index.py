import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 1

    def forward(self, x, idx):
        return torch.gather(x, 1, idx.float())


def get_inputs():
    return [torch.randn(4, 6), torch.randint(0, 6, (4, 2))]


def get_init_inputs():
    return []
# expect-error: 12:16: torch.gather(): Expected dtype int32/int64 for index, got torch.float32
