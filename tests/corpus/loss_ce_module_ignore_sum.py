import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.CrossEntropyLoss(ignore_index=3, reduction='sum'): targets equal to 3 count zero; a few classes so that many are ignored."""

    def __init__(self):
        super().__init__()
        self.criterion = nn.CrossEntropyLoss(ignore_index=3, reduction="sum")

    def forward(self, logits, targets):
        return self.criterion(logits, targets)


batch_size = 524288
num_classes = 1000

# cpu-shrink: --set batch_size=131 --set num_classes=7


def get_inputs():
    return [torch.randn(batch_size, num_classes), torch.randint(0, num_classes, (batch_size,))]


def get_init_inputs():
    return []
