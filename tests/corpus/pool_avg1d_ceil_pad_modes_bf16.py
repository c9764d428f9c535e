import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """Two 1-D average pools of bf16 sequences: nn.AvgPool1d(3, stride=2, padding=1, ceil_mode=True) (padding
    counted in the divisor), and a 'same' smoothing F.avg_pool1d(5, stride=1, padding=2,
    count_include_pad=False) whose border windows divide by their valid count."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool1d(3, stride=2, padding=1, ceil_mode=True)

    def forward(self, x):
        return self.pool(x), F.avg_pool1d(x, 5, stride=1, padding=2, count_include_pad=False)


batch_size = 128
channels = 384
length = 16382

# cpu-shrink: --set batch_size=2 --set channels=5 --set length=302


def get_inputs():
    return [torch.randn(batch_size, channels, length, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
