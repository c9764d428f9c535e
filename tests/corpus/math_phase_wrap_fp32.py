import torch
import torch.nn as nn


class Model(nn.Module):
    """Phase bookkeeping of oscillator angles: each angle wrapped into [0, 2pi) with torch.remainder by a Python
    number and its whole turns by Python's //, the angle's C remainder (torch.fmod, the sign of the angle) by a
    per-column period tensor and the bucket index by torch.div(..., rounding_mode='floor') with the same periods.
    The operands reach the roundings straight from the inputs (no product or sum before them), so eager and the
    generated kernels round the same values."""

    def __init__(self):
        super().__init__()

    def forward(self, theta, period):
        wrapped = torch.remainder(theta, 6.283185307179586)
        turns = theta // 6.283185307179586
        signed = torch.fmod(theta, period)
        bucket = torch.div(theta, period, rounding_mode="floor")
        return wrapped, turns, signed, bucket


batch_size = 4096
dim = 8191

# cpu-shrink: --set batch_size=33 --set dim=129


def get_inputs():
    return [torch.randn(batch_size, dim) * 100.0, torch.rand(dim) * 3.0 + 0.25]


def get_init_inputs():
    return []
