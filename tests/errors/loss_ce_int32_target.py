import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, logits, target):
        return F.cross_entropy(logits, target)


def get_inputs():
    return [torch.randn(8, 5), torch.randint(0, 5, (8,), dtype=torch.int32)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.cross_entropy: class-index targets must be torch.int64 (long), got torch.int32
