import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.avg_pool2d(3, stride 2, padding 1, ceil_mode, count_include_pad=False) on a channels-last input permuted to NCHW."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.avg_pool2d(x.permute(0, 3, 1, 2), 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)


batch_size = 32
height = 255
width = 255
channels = 200

# cpu-shrink: --set batch_size=2 --set height=3 --set width=37 --set channels=70


def get_inputs():
    return [torch.randn(batch_size, height, width, channels)]


def get_init_inputs():
    return []
