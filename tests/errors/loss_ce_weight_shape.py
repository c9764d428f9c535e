import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.CrossEntropyLoss(weight=torch.ones(4))

    def forward(self, logits, target):
        return self.loss(logits, target)


def get_inputs():
    return [torch.randn(8, 5), torch.randint(0, 5, (8,))]


def get_init_inputs():
    return []
# expect-error: 11:16: F.cross_entropy: weight must be a 1-D tensor of the 5 classes, got [4]
