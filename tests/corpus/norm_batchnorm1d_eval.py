import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.BatchNorm1d(eps=1e-3) on [batch, features], switched to eval mode in __init__ with running statistics
    loaded by hand: a per-feature affine from the running statistics, then ReLU; no buffer changes."""

    def __init__(self, features):
        super().__init__()
        self.bn = nn.BatchNorm1d(features, eps=1e-3)
        nn.init.uniform_(self.bn.weight, 0.5, 1.5)
        nn.init.normal_(self.bn.bias, std=0.2)
        self.bn.running_mean.normal_(0.0, 1.0)
        self.bn.running_var.uniform_(0.25, 4.0)
        self.bn.eval()

    def forward(self, x):
        return torch.relu(self.bn(x))


batch_size = 100003
features = 5001

# cpu-shrink: --set batch_size=53 --set features=131


def get_inputs():
    return [torch.randn(batch_size, features) * 2.0 + 0.5]


def get_init_inputs():
    return [features]
