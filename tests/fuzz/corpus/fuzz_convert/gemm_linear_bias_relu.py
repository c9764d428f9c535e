import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Linear with bias, followed by ReLU."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.fc(x))


batch_size = 7
in_features = 7
out_features = 7

# cpu-shrink: --set batch_size=37 --set in_features=67 --set out_features=45


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
