import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.batch_norm in training mode on registered buffers and hand-made parameters, on an NHWC tensor
    permuted to NCHW (a non-contiguous input)."""

    def __init__(self, channels):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(channels) + 0.5)
        self.bias = nn.Parameter(torch.randn(channels) * 0.1)
        self.register_buffer("running_mean", torch.zeros(channels))
        self.register_buffer("running_var", torch.ones(channels))

    def forward(self, x):
        x = x.permute(0, 3, 1, 2)
        return F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                            training=True, momentum=0.2, eps=1e-4)


batch_size = 128
height = 112
width = 112
channels = 256

# cpu-shrink: --set batch_size=3 --set height=17 --set width=19 --set channels=19


def get_inputs():
    return [torch.randn(batch_size, height, width, channels)]


def get_init_inputs():
    return [channels]
