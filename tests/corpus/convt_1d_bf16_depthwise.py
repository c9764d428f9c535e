import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """bf16 depthwise F.conv_transpose1d (groups = channels), kernel 4, stride 2, padding 1, no bias."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return F.conv_transpose1d(x, w, stride=2, padding=1, groups=x.shape[1])


batch_size = 64
channels = 256
length = 8192

# cpu-shrink: --set batch_size=2 --set channels=7 --set length=45
# dtype: bf16


def get_inputs():
    x = torch.randn(batch_size, channels, length, dtype=torch.bfloat16)
    w = torch.randn(channels, 1, 4, dtype=torch.bfloat16) * 0.5
    return [x, w]


def get_init_inputs():
    return []
