import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Sigmoid, nn.Tanh and nn.ReLU modules, and the Tensor.tanh method."""

    def __init__(self):
        super().__init__()
        self.sigmoid = nn.Sigmoid()
        self.tanh = nn.Tanh()
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.sigmoid(x) * self.tanh(x * 2.0) + self.relu(x).tanh()


batch_size = 8192
dim = 16384

# cpu-shrink: --set batch_size=33 --set dim=311


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
