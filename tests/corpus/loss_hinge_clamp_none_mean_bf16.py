import torch
import torch.nn as nn

MARGIN = 0.5

# dtype: bf16


class Model(nn.Module):
    """One-vs-rest hinge on bf16 scores written with torch.clamp(MARGIN - y * f, min=0.0), one +-1 label per row
    broadcast over the columns: reduction 'none' (per element) and 'mean'."""

    def __init__(self):
        super().__init__()

    def forward(self, scores, labels):
        hinge = torch.clamp(MARGIN - labels * scores, min=0.0)
        return hinge, hinge.mean()


batch_size = 65535
num_classes = 8192

# cpu-shrink: --set batch_size=41 --set num_classes=227


def get_inputs():
    labels = (torch.randint(0, 2, (batch_size, 1)) * 2 - 1).to(torch.bfloat16)
    return [torch.randn(batch_size, num_classes, dtype=torch.bfloat16), labels]


def get_init_inputs():
    return []
