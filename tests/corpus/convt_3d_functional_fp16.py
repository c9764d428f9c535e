import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """fp16 F.conv_transpose3d with bias (weight and bias are inputs): kernel 3, stride (1, 2, 2), padding 1,
    output_padding (0, 1, 1): H and W are doubled, D is kept."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w, b):
        return F.conv_transpose3d(x, w, b, stride=(1, 2, 2), padding=1, output_padding=(0, 1, 1))


batch_size = 16
in_channels = 128
out_channels = 64
depth = 15
height = 63
width = 65

# cpu-shrink: --set batch_size=2 --set in_channels=9 --set out_channels=7 --set depth=3 --set height=5 --set width=7
# dtype: fp16


def get_inputs():
    x = torch.randn(batch_size, in_channels, depth, height, width, dtype=torch.float16)
    w = torch.randn(in_channels, out_channels, 3, 3, 3, dtype=torch.float16) * 0.03
    b = torch.randn(out_channels, dtype=torch.float16)
    return [x, w, b]


def get_init_inputs():
    return []
