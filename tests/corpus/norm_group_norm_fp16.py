import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: fp16


class Model(nn.Module):
    """F.group_norm without affine on fp16 [batch, channels, length] activations."""

    def __init__(self, num_groups):
        super().__init__()
        self.num_groups = num_groups

    def forward(self, x):
        return F.group_norm(x, self.num_groups)


batch_size = 64
channels = 512
length = 8192
num_groups = 16

# cpu-shrink: --set batch_size=3 --set channels=21 --set length=201 --set num_groups=3


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=torch.float16)]


def get_init_inputs():
    return [num_groups]
