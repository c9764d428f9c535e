import torch
import torch.nn as nn


class Model(nn.Module):
    """Fake quantization and the rounding family on values snapped to a 1/1024 grid: symmetric int8
    quantize-dequantize with a power-of-two step (round half to even, then clamp), round(decimals=1 and 2),
    floor/ceil to quarter steps, trunc/fix/frac, sign/sgn, and division rounded toward zero by a tensor of whole
    numbers. Every product before a rounding is exact in float32 (grid values times small integers and powers of
    two), so eager in float32 and in float64 round the same values and agree."""

    def __init__(self, levels):
        super().__init__()
        self.levels = levels

    def forward(self, x, d):
        g = torch.round(x * 1024.0) * 0.0009765625
        q = torch.clamp(torch.round(g * 16.0), -self.levels, self.levels - 1) * 0.0625
        r = g.round(decimals=2) + torch.round(g, decimals=1)
        steps = torch.floor(g * 4.0) * 0.25 + g.mul(4.0).ceil() * 0.25
        parts = torch.trunc(g) + g.fix() + torch.frac(g * 3.0)
        signs = torch.sign(g) * 0.5 + g.sgn()
        whole = torch.div(g * 8.0, torch.floor(d * 8.0) + 1.0, rounding_mode="trunc") * 0.125
        return q + r - steps + parts + signs + whole


batch_size = 8192
dim = 8192

# cpu-shrink: --set batch_size=37 --set dim=130


def get_inputs():
    return [torch.randn(batch_size, dim), torch.rand(batch_size, dim) + 0.5]


def get_init_inputs():
    return [128]
