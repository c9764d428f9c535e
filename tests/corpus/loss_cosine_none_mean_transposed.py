import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Cosine similarity loss 1 - F.cosine_similarity(a, b, dim=1) with b given as [D, B] and transposed in forward
    (non-contiguous): reduction 'none' (one loss per row) and the mean."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b_t):
        loss = 1 - F.cosine_similarity(a, b_t.t(), dim=1)
        return loss, loss.mean()


batch_size = 65535
dim = 4096

# cpu-shrink: --set batch_size=41 --set dim=131


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(dim, batch_size)]


def get_init_inputs():
    return []
