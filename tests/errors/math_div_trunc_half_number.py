import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.div(x, 0.3, rounding_mode="trunc")


def get_inputs():
    return [torch.randn(4, 4, dtype=torch.float16)]


def get_init_inputs():
    return []
# expect-error: 7:16: division of a torch.float16 tensor by a Python number with rounding_mode='trunc' is not supported
