import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Cosine similarity loss: torch.mean(1 - F.cosine_similarity(a, b, dim=1, eps=1e-8))."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        cos = F.cosine_similarity(predictions, targets, dim=1, eps=1e-8)
        return torch.mean(1 - cos)


batch_size = 65536
dim = 4096

# cpu-shrink: --set batch_size=37 --set dim=263


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
