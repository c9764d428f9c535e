import torch
import torch.nn as nn


class Model(nn.Module):
    """Softmax over very long rows (256K entries), too long for one block in registers."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


batch_size = 1024
dim = 262144

# cpu-shrink: --set batch_size=3 --set dim=20011
# cpu-shrink-long: rows longer than 16384 elements take the looped (or split) reduction path


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
