import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.cross_entropy on [N, C, H, W] fp16 logits (segmentation): the class dim is not innermost; targets [N, H, W]."""

    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        return F.cross_entropy(logits, targets, reduction="sum")


batch_size = 128
num_classes = 21
height = 512
width = 512

# dtype: fp16
# cpu-shrink: --set batch_size=3 --set num_classes=5 --set height=19 --set width=23


def get_inputs():
    return [torch.randn(batch_size, num_classes, height, width, dtype=torch.float16), torch.randint(0, num_classes, (batch_size, height, width))]


def get_init_inputs():
    return []
