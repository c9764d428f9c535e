import torch
import torch.nn as nn


class Model(nn.Module):
    """Discount-like reverse cumprod of factors in (0.95, 1.05) along the last dim, written with flips."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        f = 0.95 + 0.1 * x
        return f.flip(-1).cumprod(-1).flip(-1)


batch_size = 32768
dim = 4095

# cpu-shrink: --set batch_size=5 --set dim=2053


def get_inputs():
    return [torch.rand(batch_size, dim)]


def get_init_inputs():
    return []
