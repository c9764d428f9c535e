import torch
import torch.nn as nn


class Model(nn.Module):
    """Channels-last input permuted to NCHW (non-contiguous), rectangular nn.MaxPool2d((2, 3), stride=(2, 1)), then ReLU fused in."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d((2, 3), stride=(2, 1))

    def forward(self, x):
        return torch.relu(self.pool(x.permute(0, 3, 1, 2)) - 0.5)


batch_size = 16
height = 256
width = 255
channels = 128

# cpu-shrink: --set batch_size=2 --set height=17 --set width=21 --set channels=5


def get_inputs():
    return [torch.randn(batch_size, height, width, channels)]


def get_init_inputs():
    return []
