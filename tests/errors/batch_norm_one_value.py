import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(8)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(1, 8)]


def get_init_inputs():
    return []
# expect-error: 11:16: batch_norm in training mode expects more than 1 value per channel, got input of shape [1, 8]
