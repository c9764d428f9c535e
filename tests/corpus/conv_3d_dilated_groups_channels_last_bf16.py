import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bf16 F.conv3d of a channels-last [N, D, H, W, C] input permuted to NCDHW in forward (non-contiguous): kernel 3,
    stride (1, 2, 2), padding (2, 1, 2), dilation (2, 1, 2), groups 2, no bias."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        x = x.permute(0, 4, 1, 2, 3)
        return F.conv3d(x, w, stride=(1, 2, 2), padding=(2, 1, 2), dilation=(2, 1, 2), groups=2)


batch_size = 8
in_channels = 192
out_channels = 192
depth = 25
height = 95
width = 97

# cpu-shrink: --set batch_size=2 --set in_channels=6 --set out_channels=10 --set depth=5 --set height=9 --set width=11
# dtype: bf16


def get_inputs():
    x = torch.randn(batch_size, depth, height, width, in_channels, dtype=torch.bfloat16)
    w = torch.randn(out_channels, in_channels // 2, 3, 3, 3, dtype=torch.bfloat16) * 0.03
    return [x, w]


def get_init_inputs():
    return []
