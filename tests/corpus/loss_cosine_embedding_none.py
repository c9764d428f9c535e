import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.cosine_embedding_loss(reduction='none') with float +-1 targets and the default margin 0."""

    def __init__(self):
        super().__init__()

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, reduction="none")


batch_size = 65536
dim = 4096

# cpu-shrink: --set batch_size=41 --set dim=101


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim), torch.randint(0, 2, (batch_size,)).float() * 2 - 1]


def get_init_inputs():
    return []
