import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """nn.BatchNorm2d(affine=False) in eval mode (set in __init__) on bf16 activations: fp32 running statistics
    loaded by hand, the normalisation computed in fp32 and rounded to bf16 once."""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels, affine=False, eps=1e-3)
        self.bn.running_mean.normal_(0.0, 0.5)
        self.bn.running_var.uniform_(0.5, 2.0)
        self.bn.eval()

    def forward(self, x):
        return self.bn(x)


batch_size = 128
channels = 96
height = 255
width = 257

# cpu-shrink: --set batch_size=3 --set channels=7 --set height=21 --set width=27


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.bfloat16)]


def get_init_inputs():
    return [channels]
