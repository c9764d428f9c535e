import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.Hardtanh(2.0, -2.0)

    def forward(self, x):
        return self.act(x)


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 8:20: nn.Hardtanh: max_val (-2.0) must be greater than min_val (2.0)
