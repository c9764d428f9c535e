import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(8)

    def forward(self, x):
        y = self.bn(x)
        return self.bn(y * 2.0)


def get_inputs():
    return [torch.randn(4, 8)]


def get_init_inputs():
    return []
# expect-error: 12:16: the buffer 'bn.num_batches_tracked' is updated twice in one forward(): not supported
