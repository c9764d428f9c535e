import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool3d(kernel_size=4, dilation=2)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 3, 6, 9, 9)]


def get_init_inputs():
    return []
# expect-error: 11:16: max_pool3d: given input size: (3x6x9x9). Calculated output size: (3x0x1x1). Output size is too small
