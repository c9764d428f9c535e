import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, logits, probs):
        return F.cross_entropy(logits, probs, ignore_index=0)


def get_inputs():
    return [torch.randn(8, 5), torch.rand(8, 5)]


def get_init_inputs():
    return []
# expect-error: 8:16: F.cross_entropy: ignore_index is only supported with class-index targets
