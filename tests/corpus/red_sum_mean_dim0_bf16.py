import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """Column statistics of a bf16 matrix: torch.sum over dim 0 with keepdim=True and Tensor.mean over dim 0
    (fp32 accumulation over 65535 rows, bf16 results)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, 0, keepdim=True), x.mean(dim=0)


rows = 65535
cols = 16384

# cpu-shrink: --set rows=301 --set cols=41


def get_inputs():
    return [torch.randn(rows, cols, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
