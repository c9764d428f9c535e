import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.cosine_similarity over dim 0 (not innermost) of fp16 inputs, then 1 - cos summed."""

    def __init__(self):
        super().__init__()

    def forward(self, x1, x2):
        return (1 - torch.cosine_similarity(x1, x2, dim=0)).sum()


rows = 4096
cols = 32768

# dtype: fp16
# cpu-shrink: --set rows=37 --set cols=131


def get_inputs():
    return [torch.randn(rows, cols, dtype=torch.float16), torch.randn(rows, cols, dtype=torch.float16)]


def get_init_inputs():
    return []
