import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """fp16 4-D tensor times a transposed weight, spelled with einsum: 'bhsd,ed->bhse' (the weight stored
    [out, in] as nn.Linear keeps it, read by strides)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w):
        return torch.einsum("bhsd,ed->bhse", x, w)


b = 16
h = 16
s = 1000
d = 1024
e = 2304

# cpu-shrink: --set b=2 --set h=3 --set s=11 --set d=18 --set e=19


def get_inputs():
    return [torch.randn(b, h, s, d, dtype=torch.float16), torch.randn(e, d, dtype=torch.float16)]


def get_init_inputs():
    return []
