import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """On bf16 [B, S, D] tensors: nn.HuberLoss(delta=1.5) (mean), and F.smooth_l1_loss(beta=0.5) with
    reduction='none' and 'sum'."""

    def __init__(self):
        super().__init__()
        self.huber = nn.HuberLoss(delta=1.5)

    def forward(self, predictions, targets):
        per_element = F.smooth_l1_loss(predictions, targets, reduction="none", beta=0.5)
        total = F.smooth_l1_loss(predictions, targets, reduction="sum", beta=0.5)
        return self.huber(predictions, targets), per_element, total


batch_size = 16
seq_len = 4095
dim = 8192

# cpu-shrink: --set batch_size=3 --set seq_len=29 --set dim=97


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim, dtype=torch.bfloat16) * 2,
            torch.randn(batch_size, seq_len, dim, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
