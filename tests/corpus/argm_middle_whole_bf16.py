import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """argmax / argmin over the middle dim of a bf16 [B, S, D] tensor, and over the whole of its
    transpose(1, 2) view (flat indices in the view's logical order); bf16 ties resolve to the first index."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = x.transpose(1, 2)
        return x.argmax(dim=1), torch.argmin(x, 1), y.argmax(), torch.argmin(y)


batch_size = 64
seq_len = 2047
dim = 4096

# cpu-shrink: --set batch_size=3 --set seq_len=37 --set dim=131


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
