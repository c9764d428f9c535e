import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.norm(x, p=0, dim=1)


def get_inputs():
    return [torch.randn(6, 7)]


def get_init_inputs():
    return []
# expect-error: 7:16: torch.norm with p = 0.0 is not supported (p > 0 or inf)
