import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A gated unit over a sequence: channels chunked in two (GLU), the gated values zero-padded along the sequence
    (two steps before, one after) and summed over a window of four steps by slices, the ungated half reflect-padded
    at the sequence ends and smoothed by three taps; per-head maxima over torch.split pieces, and the count of
    open gates per position (torch.count_nonzero)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        a, b = x.chunk(2, dim=-1)
        g = a * torch.sigmoid(b)
        p = F.pad(g, (0, 0, 2, 1))
        window = p[:, :-3] + p[:, 1:-2] + p[:, 2:-1] + p[:, 3:]
        r = F.pad(a.transpose(1, 2), (1, 1), mode="reflect")
        smooth = 0.25 * r[..., :-2] + 0.5 * r[..., 1:-1] + 0.25 * r[..., 2:]
        heads = torch.stack([h.amax(dim=-1) for h in window.split(HEAD, dim=-1)], dim=-1)
        open_gates = torch.count_nonzero(torch.sigmoid(b) > 0.5, dim=-1)
        return window + smooth.transpose(1, 2), heads, open_gates


batch_size = 16
seq_len = 2048
channels = 4096
HEAD = 1024

# cpu-shrink: --set batch_size=2 --set seq_len=37 --set channels=142 --set HEAD=29


def get_inputs():
    return [torch.randn(batch_size, seq_len, channels)]


def get_init_inputs():
    return []
