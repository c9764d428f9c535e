import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """log_softmax over the middle dim of a bf16 [batch, classes, positions] tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.log_softmax(x, dim=1)


batch_size = 32
num_classes = 1024
positions = 4096

# cpu-shrink: --set batch_size=2 --set num_classes=37 --set positions=53


def get_inputs():
    return [torch.randn(batch_size, num_classes, positions, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
