import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.cross_entropy on bf16 logits: log-sum-exp in fp32, a bf16 result."""

    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        return F.cross_entropy(logits, targets)


batch_size = 32768
num_classes = 32000

# dtype: bf16
# cpu-shrink: --set batch_size=37 --set num_classes=257


def get_inputs():
    return [torch.randn(batch_size, num_classes, dtype=torch.bfloat16), torch.randint(0, num_classes, (batch_size,))]


def get_init_inputs():
    return []
