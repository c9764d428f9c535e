import torch
import torch.nn as nn


class Model(nn.Module):
    """One query vector per batch, unsqueezed and expanded against K keys, then ReLU of the product."""

    def __init__(self):
        super().__init__()

    def forward(self, q, keys):
        q = q.unsqueeze(1).expand(-1, keys.size(1), -1)
        return (q * keys).relu()


batch_size = 512
num_keys = 512
dim = 1024

# cpu-shrink: --set batch_size=3 --set num_keys=29 --set dim=67


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, num_keys, dim)]


def get_init_inputs():
    return []
