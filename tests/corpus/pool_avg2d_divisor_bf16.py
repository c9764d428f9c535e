import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """nn.AvgPool2d with a (3, 2) window, padding (1, 0) and divisor_override=4 on bf16 input (sum accumulated in fp32)."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d((3, 2), stride=2, padding=(1, 0), divisor_override=4)

    def forward(self, x):
        return self.pool(x)


batch_size = 64
channels = 64
height = 384
width = 385

# cpu-shrink: --set batch_size=2 --set channels=3 --set height=21 --set width=27


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
