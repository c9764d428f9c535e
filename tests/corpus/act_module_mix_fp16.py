import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """Six activation modules on fp16 activations, each on its own branch: nn.ELU(alpha=1.5), nn.Hardtanh with keyword
    bounds, nn.Softsign, nn.Mish, nn.Softplus with its defaults and nn.SELU."""

    def __init__(self):
        super().__init__()
        self.elu = nn.ELU(alpha=1.5)
        self.hardtanh = nn.Hardtanh(min_val=-0.75, max_val=1.5)
        self.softsign = nn.Softsign()
        self.mish = nn.Mish()
        self.softplus = nn.Softplus()
        self.selu = nn.SELU()

    def forward(self, x):
        a = self.elu(x) + self.hardtanh(x * 2.0)
        b = self.softsign(x * 3.0) * self.mish(x)
        return a - b + self.softplus(x) * 0.25 + self.selu(x)


tokens = 131071
hidden = 4099

# cpu-shrink: --set tokens=41 --set hidden=263


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.float16)]


def get_init_inputs():
    return []
