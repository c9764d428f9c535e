import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm2d in training mode: batch statistics over (N, H, W), running buffers updated."""

    def __init__(self, num_features):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)
        nn.init.normal_(self.bn.weight, mean=1.0, std=0.1)
        nn.init.normal_(self.bn.bias, std=0.1)

    def forward(self, x):
        return self.bn(x)


batch_size = 32
features = 64
height = 256
width = 256

# cpu-shrink: --set batch_size=5 --set features=3 --set height=29 --set width=37


def get_inputs():
    return [torch.randn(batch_size, features, height, width) * 2.0 + 0.5]


def get_init_inputs():
    return [features]
