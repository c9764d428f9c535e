import torch
import torch.nn as nn


class Model(nn.Module):
    """Standardisation written out with Tensor.var (biased, keepdim) over odd-length rows, then a scale."""

    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        return (x - mean) * torch.rsqrt(var + self.eps) * 0.5


batch_size = 8192
features = 6001
eps = 1e-5

# cpu-shrink: --set batch_size=5 --set features=37


def get_inputs():
    return [torch.randn(batch_size, features) * 2.0 + 3.0]


def get_init_inputs():
    return [eps]
