import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, logits, target):
        return F.cross_entropy(logits, target)


def get_inputs():
    return [torch.randn(8, 5), torch.randint(0, 5, (8, 5))]


def get_init_inputs():
    return []
# expect-error: 8:16: F.cross_entropy: class-index targets of shape [8] expected for an input of shape [8, 5], got [8, 5]
