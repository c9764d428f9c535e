import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bf16 grouped F.conv_transpose2d (groups 3, no bias) of an [N, C, H, W] input that get_inputs() returns transposed
    from [N, C, W, H] (non-contiguous): kernel (4, 3), stride (2, 3), padding (1, 0), output_padding (1, 2)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return F.conv_transpose2d(x, w, stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=3)


batch_size = 64
in_channels = 384
out_channels = 192
height = 95
width = 63

# cpu-shrink: --set batch_size=2 --set in_channels=6 --set out_channels=9 --set height=5 --set width=7
# dtype: bf16


def get_inputs():
    x = torch.randn(batch_size, in_channels, width, height, dtype=torch.bfloat16).transpose(2, 3)
    w = torch.randn(in_channels, out_channels // 3, 4, 3, dtype=torch.bfloat16) * 0.05
    return [x, w]


def get_init_inputs():
    return []
