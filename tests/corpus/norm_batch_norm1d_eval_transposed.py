import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.batch_norm(..., training=False) on registered running buffers and hand-made parameters (1-D batch norm
    over [batch, channels, length]) of a [batch, length, channels] input transposed in forward (non-contiguous)."""

    def __init__(self, channels):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(channels) + 0.5)
        self.bias = nn.Parameter(torch.randn(channels) * 0.1)
        self.register_buffer("running_mean", torch.randn(channels) * 0.5)
        self.register_buffer("running_var", torch.rand(channels) * 2.0 + 0.5)

    def forward(self, x):
        return F.batch_norm(x.transpose(1, 2), self.running_mean, self.running_var, self.weight, self.bias,
                            training=False, momentum=0.1, eps=1e-5)


batch_size = 64
length = 8191
channels = 768

# cpu-shrink: --set batch_size=3 --set length=61 --set channels=37


def get_inputs():
    return [torch.randn(batch_size, length, channels)]


def get_init_inputs():
    return [channels]
