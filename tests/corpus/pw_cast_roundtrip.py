import torch
import torch.nn as nn


class Model(nn.Module):
    """fp32 -> fp16 -> fp32 round trips, with the quantization error kept in fp32."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        xh = x.half()
        yh = y.to(dtype=torch.float16)
        err = x - xh.float()
        return xh.to(torch.float32) * yh.float() + err * 1024.0


batch_size = 8192
dim = 16384

# cpu-shrink: --set batch_size=37 --set dim=119


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
