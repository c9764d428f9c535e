import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """Batched matrix product in fp16 spelled with einsum ('bij,bjk->bik'), then a batch-shared matrix
    ('bik,kn->bin')."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B, C):
        return torch.einsum("bik,kn->bin", torch.einsum("bij,bjk->bik", A, B), C)


batch = 512
m = 1024
inner = 512
n = 1024
out = 256

# cpu-shrink: --set batch=2 --set m=19 --set inner=18 --set n=21 --set out=17


def get_inputs():
    A = torch.randn(batch, m, inner, dtype=torch.float16)
    B = torch.randn(batch, inner, n, dtype=torch.float16)
    C = torch.randn(n, out, dtype=torch.float16)
    return [A, B, C]


def get_init_inputs():
    return []
