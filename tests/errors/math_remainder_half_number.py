import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x.half() % 0.1


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
# expect-error: 7:16: remainder of a torch.float16 tensor and the number 0.1, which torch.float16 cannot hold exactly, is not supported
