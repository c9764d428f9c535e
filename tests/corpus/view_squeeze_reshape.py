import torch
import torch.nn as nn


GROUPS = 8


class Model(nn.Module):
    """squeeze of singleton dims, reshape/view into groups (sizes from x.size()), per-group gain."""

    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(GROUPS))

    def forward(self, x, y):
        a = x.squeeze(1).reshape(x.size(0), GROUPS, -1)
        b = torch.squeeze(y, -1).view(y.size(0), GROUPS, -1)
        return (a + b) * self.gain.view(1, GROUPS, 1)


batch_size = 16384
features = 16384

# cpu-shrink: --set batch_size=17 --set GROUPS=3 --set features=249


def get_inputs():
    return [torch.randn(batch_size, 1, features), torch.randn(batch_size, features, 1)]


def get_init_inputs():
    return []
