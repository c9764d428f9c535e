import torch
import torch.nn as nn


class Model(nn.Module):
    """argmin of a few very long rows with ties from a clamp and, in about one row in six, a NaN (an element above
    5.5: argmin finds the first), and the max of the rows unclamped; each row split over many programs, the last to
    finish combining them. (No NaN reaches an output: KernelBench's allclose counts NaN as a mismatch.)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.where(x > 5.5, float("nan"), x.clamp(min=-2.5))
        return torch.argmin(y, dim=1), torch.amax(x, dim=1)


rows = 96
cols = 8388593

# cpu-shrink: --set rows=5 --set cols=3001


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
