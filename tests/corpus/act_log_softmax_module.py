import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.LogSoftmax(dim=1) over the class dim of a [batch, classes, positions] tensor."""

    def __init__(self):
        super().__init__()
        self.log_softmax = nn.LogSoftmax(dim=1)

    def forward(self, x):
        return self.log_softmax(x)


batch_size = 64
classes = 1000
positions = 2048

# cpu-shrink: --set batch_size=3 --set classes=101 --set positions=37


def get_inputs():
    return [torch.randn(batch_size, classes, positions)]


def get_init_inputs():
    return []
