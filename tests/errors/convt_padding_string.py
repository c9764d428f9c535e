import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(8, 4, 3, padding="same")

    def forward(self, x):
        return self.up(x)


def get_inputs():
    return [torch.randn(2, 8, 10, 10)]


def get_init_inputs():
    return []
# expect-error: 9:19: nn.ConvTranspose2d: padding='same' is not supported by transposed convolutions
