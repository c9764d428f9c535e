import torch
import torch.nn as nn


class Model(nn.Module):
    """Squared hinge on bf16 scores: (clamp_min(1 - y * f, 0) ** 2).sum() / batch, targets +-1 in bf16."""

    def __init__(self):
        super().__init__()

    def forward(self, scores, targets):
        hinge = (1 - scores * targets).clamp_min(0)
        return (hinge.float() ** 2).sum() / scores.shape[0]


batch_size = 32768
dim = 8192

# dtype: bf16
# cpu-shrink: --set batch_size=41 --set dim=227


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=torch.bfloat16), (torch.randint(0, 2, (batch_size, dim)) * 2 - 1).to(torch.bfloat16)]


def get_init_inputs():
    return []
