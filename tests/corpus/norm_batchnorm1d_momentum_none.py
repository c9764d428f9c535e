import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm1d on [batch, features] with momentum=None: running statistics as a cumulative average."""

    def __init__(self, features):
        super().__init__()
        self.bn = nn.BatchNorm1d(features, momentum=None, eps=1e-3)

    def forward(self, x):
        return torch.relu(self.bn(x))


batch_size = 32768
features = 8192

# cpu-shrink: --set batch_size=301 --set features=53


def get_inputs():
    return [torch.randn(batch_size, features) * 3.0 - 1.0]


def get_init_inputs():
    return [features]
