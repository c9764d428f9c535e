import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Multi-label classification loss: nn.BCEWithLogitsLoss with a per-class pos_weight buffer (mean over every
    element), beside the per-element loss of F.binary_cross_entropy on the probabilities."""

    def __init__(self, num_labels):
        super().__init__()
        self.loss = nn.BCEWithLogitsLoss(pos_weight=torch.rand(num_labels) * 3 + 0.5)

    def forward(self, logits, labels):
        probs = torch.sigmoid(logits)
        return self.loss(logits, labels), F.binary_cross_entropy(probs, labels, reduction="none")


batch_size = 16384
num_labels = 4095

# cpu-shrink: --set batch_size=37 --set num_labels=131


def get_inputs():
    return [torch.randn(batch_size, num_labels) * 4, torch.rand(batch_size, num_labels)]


def get_init_inputs():
    return [num_labels]
