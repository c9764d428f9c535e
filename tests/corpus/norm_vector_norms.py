import torch
import torch.nn as nn


class Model(nn.Module):
    """Vector norms along dims: torch.norm(p=1, dim, keepdim), torch.linalg.vector_norm with ord=inf and
    ord=3 over two dims, torch.linalg.norm(x, dim=-1)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        l1 = torch.norm(x, p=1, dim=2, keepdim=True)
        linf = torch.linalg.vector_norm(x, ord=float('inf'), dim=(1, 2), keepdim=True)
        l3 = torch.linalg.vector_norm(x, ord=3, dim=(1, 2))
        l2 = torch.linalg.norm(x, dim=-1)
        return x / (l1 + linf), l3, l2


batch_size = 128
rows = 1024
cols = 4096

# cpu-shrink: --set batch_size=3 --set rows=29 --set cols=131


def get_inputs():
    return [torch.randn(batch_size, rows, cols)]


def get_init_inputs():
    return []
