import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Flattens a feature map with x.view(x.size(0), -1), applies a linear classifier and log_softmax."""

    def __init__(self, in_features, num_classes=1000):
        super().__init__()
        self.classifier = nn.Linear(in_features, num_classes)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        return F.log_softmax(self.classifier(x), dim=1)


batch_size = 1024
channels = 512
height = 7
width = 7
num_classes = 1000

# cpu-shrink: --set batch_size=19 --set channels=5 --set height=3 --set width=5 --set num_classes=37


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels * height * width, num_classes]
