import torch
import torch.nn as nn


class Model(nn.Module):
    """Grid coordinates of fp16 feature maps read channels-last through a permute (a non-contiguous input): the
    position inside a cell of a per-channel pitch (Python's % by a broadcast [C] fp16 tensor), the cell index
    (Python's // by the same pitches), a quarter-cell phase (torch.fmod by the Python number 0.25, which fp16
    holds exactly) and the half-cell index (torch.floor_divide by 0.5)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, pitch):
        xl = x.permute(0, 2, 3, 1)
        inside = xl % pitch
        cell = xl // pitch
        phase = torch.fmod(xl, 0.25)
        halves = torch.floor_divide(xl, 0.5)
        return inside, cell, phase, halves


batch_size = 32
channels = 96
height = 127
width = 129

# dtype: fp16
# cpu-shrink: --set batch_size=2 --set channels=5 --set height=7 --set width=9


def get_inputs():
    return [(torch.randn(batch_size, channels, height, width) * 20.0).half(),
            (torch.rand(channels) * 2.0 + 0.5).half()]


def get_init_inputs():
    return []
