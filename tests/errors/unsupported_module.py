import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(16, 32)

    def forward(self, x):
        return self.lstm(x)


def get_inputs():
    return [torch.randn(4, 8, 16)]


def get_init_inputs():
    return []
# expect-error: 8:21: nn.LSTM is not supported yet
