import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bf16 F.conv_transpose3d of a channels-last input permuted to NCDHW in forward (non-contiguous): kernel 3,
    stride 2, padding 2, output_padding 1, dilation 2, groups 2, no bias (D, H and W are doubled)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = x.permute(0, 4, 1, 2, 3)
        return F.conv_transpose3d(x, w, stride=2, padding=2, output_padding=1, groups=2, dilation=2)


batch_size = 16
in_channels = 128
out_channels = 64
depth = 15
height = 63
width = 65

# cpu-shrink: --set batch_size=2 --set in_channels=6 --set out_channels=10 --set depth=3 --set height=5 --set width=7
# dtype: bf16


def get_inputs():
    x = torch.randn(batch_size, depth, height, width, in_channels, dtype=torch.bfloat16)
    w = torch.randn(in_channels, out_channels // 2, 3, 3, 3, dtype=torch.bfloat16) * 0.05
    return [x, w]


def get_init_inputs():
    return []
