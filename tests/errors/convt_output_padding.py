import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose1d(8, 4, 3, stride=2, output_padding=2)

    def forward(self, x):
        return self.up(x)


def get_inputs():
    return [torch.randn(2, 8, 10)]


def get_init_inputs():
    return []
# expect-error: 12:16: nn.ConvTranspose1d: output_padding (2) must be smaller than either stride or dilation
