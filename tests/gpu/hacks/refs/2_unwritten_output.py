# Reference for the harness's hack test 2_unwritten_output: a ReLU over a 4096x4096 fp32 tensor.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


rows, cols = 4096, 4096


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
