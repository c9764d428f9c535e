import torch
import torch.nn as nn


class Model(nn.Module):
    """A sinusoidal position table built in forward: torch.arange positions (float start, so float32) and the
    torch.outer product with learned frequencies, sin and cos halves joined by torch.cat, rolled by a fixed offset
    along the positions (torch.roll), repeated over the windows of the sequence (Tensor.repeat) and tiled over the
    batch (torch.tile); a learned query scores each position by torch.inner, scaled by a torch.dot of two
    parameter vectors."""

    def __init__(self, dim, shift):
        super().__init__()
        self.shift = shift
        self.freq = nn.Parameter(torch.rand(dim // 2) * 6.0)
        self.query = nn.Parameter(torch.randn(dim) / dim**0.5)
        self.u = nn.Parameter(torch.rand(dim))
        self.v = nn.Parameter(torch.rand(dim) / dim)

    def forward(self, x):
        b, s, d = x.shape
        pos = torch.arange(0.5, window, 1.0, device=x.device) / window
        angles = torch.outer(pos, self.freq)
        table = torch.cat([angles.sin(), angles.cos()], dim=-1)
        table = torch.roll(table, shifts=self.shift, dims=0).repeat(s // window, 1)
        y = x + torch.tile(table, (b, 1, 1))
        score = torch.inner(y, self.query) * torch.dot(self.u, self.v)
        return y, score


batch_size = 32
window = 512
windows = 8
dim = 2048
shift = 37

# cpu-shrink: --set batch_size=3 --set window=19 --set windows=3 --set dim=62 --set shift=5


def get_inputs():
    return [torch.randn(batch_size, window * windows, dim)]


def get_init_inputs():
    return [dim, shift]
