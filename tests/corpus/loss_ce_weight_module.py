import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.CrossEntropyLoss(weight=...) with class weights drawn by torch.rand (a buffer), mean divided by the picked weights."""

    def __init__(self, num_classes):
        super().__init__()
        self.loss = nn.CrossEntropyLoss(weight=torch.rand(num_classes) + 0.5)

    def forward(self, logits, targets):
        return self.loss(logits, targets)


batch_size = 524288
num_classes = 1000

# cpu-shrink: --set batch_size=67 --set num_classes=133


def get_inputs():
    return [torch.randn(batch_size, num_classes), torch.randint(0, num_classes, (batch_size,))]


def get_init_inputs():
    return [num_classes]
