import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.MaxPool2d((3, 2), stride=(2, 3), padding=(1, 0), dilation=(2, 3), ceil_mode=True): a per-axis
    window, stride and dilation, on an [N, C, W, H] input transposed to [N, C, H, W] (non-contiguous)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d((3, 2), stride=(2, 3), padding=(1, 0), dilation=(2, 3), ceil_mode=True)

    def forward(self, x):
        return self.pool(x.transpose(2, 3))


batch_size = 32
channels = 64
width = 767
height = 510

# cpu-shrink: --set batch_size=2 --set channels=3 --set width=38 --set height=30


def get_inputs():
    return [torch.randn(batch_size, channels, width, height)]


def get_init_inputs():
    return []
