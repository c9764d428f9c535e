import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.smooth_l1_loss with beta=0.5 and reduction='sum' on a 3-D tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return F.smooth_l1_loss(predictions, targets, reduction="sum", beta=0.5)


batch_size = 4096
seq_len = 512
dim = 128

# cpu-shrink: --set batch_size=3 --set seq_len=37 --set dim=67


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim), torch.randn(batch_size, seq_len, dim)]


def get_init_inputs():
    return []
