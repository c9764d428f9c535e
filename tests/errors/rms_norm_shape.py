import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.rms_norm(x, (8,))


def get_inputs():
    return [torch.randn(4, 6)]


def get_init_inputs():
    return []
# expect-error: 8:16: rms_norm: normalized_shape [8] does not match the trailing dims of the input [4, 6]
