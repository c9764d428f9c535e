import torch
import torch.nn as nn


class Model(nn.Module):
    """A gated residual unit: sigmoid(x W_g^T) * tanh(x W_v^T) + x, with weights from torch.randn
    scaled at init and biases from torch.zeros, via torch.mm and .t()."""

    def __init__(self, dim, init_scale=0.02):
        super().__init__()
        self.w_gate = nn.Parameter(torch.randn(dim, dim) * init_scale)
        self.w_value = nn.Parameter(torch.randn(dim, dim) * init_scale)
        self.b_gate = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        gate = torch.sigmoid(torch.mm(x, self.w_gate.t()) + self.b_gate)
        value = torch.tanh(torch.mm(x, self.w_value.t()))
        return gate * value + x


batch_size = 8192
dim = 2048

# cpu-shrink: --set batch_size=27 --set dim=33


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim]
