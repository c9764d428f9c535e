# Reference for the harness's hack test 5_side_stream: a ReLU over a 8192x16384 fp32 tensor.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


rows, cols = 8192, 16384


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
