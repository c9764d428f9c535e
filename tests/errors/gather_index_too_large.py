import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 1

    def forward(self, x, idx):
        return x.gather(1, idx)


def get_inputs():
    return [torch.randn(4, 6), torch.randint(0, 6, (5, 2))]


def get_init_inputs():
    return []
# expect-error: 12:16: torch.gather(): Size does not match at dimension 0 expected index [5, 2] to be no larger than self [4, 6] apart from dimension 1
