import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """Per-pixel entropy of a segmentation map: nn.Softmax(dim=1) and nn.LogSoftmax(dim=1) over the classes of a
    channels-last bf16 input permuted to NCHW in forward (non-contiguous: the softmax dim is innermost in memory),
    multiplied and summed over the classes."""

    def __init__(self):
        super().__init__()
        self.softmax = nn.Softmax(dim=1)
        self.log_softmax = nn.LogSoftmax(dim=1)

    def forward(self, x):
        x = x.permute(0, 3, 1, 2)
        return -(self.softmax(x) * self.log_softmax(x)).sum(dim=1)


batch_size = 32
height = 255
width = 257
classes = 151

# cpu-shrink: --set batch_size=2 --set height=9 --set width=11 --set classes=37


def get_inputs():
    return [torch.randn(batch_size, height, width, classes, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
