import torch
import torch.nn as nn


class Model(nn.Module):
    """x * scale then softmax over the last dim; the scale is a constructor argument with a default."""

    def __init__(self, scale=1.0):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return torch.softmax(x * self.scale, dim=-1)


batch_size = 256
seq_len = 512
dim = 2048

# cpu-shrink: --set batch_size=2 --set seq_len=17 --set dim=143


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim) * 4.0]


def get_init_inputs():
    return [0.125]
