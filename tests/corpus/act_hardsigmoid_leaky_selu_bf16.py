import torch
import torch.nn as nn
import torch.nn.functional as F

# dtype: bf16


class Model(nn.Module):
    """F.hardsigmoid and nn.Hardsigmoid gates, F.leaky_relu (keyword slope) and nn.LeakyReLU(0.2), torch.selu and
    F.selu, on two bf16 [batch, channels, length] inputs."""

    def __init__(self):
        super().__init__()
        self.hardsigmoid = nn.Hardsigmoid()
        self.leaky = nn.LeakyReLU(0.2)

    def forward(self, x, y):
        g = F.hardsigmoid(x * 4.0) * self.leaky(y)
        h = self.hardsigmoid(y * 4.0) * F.leaky_relu(x, negative_slope=0.05)
        return g + h + torch.selu(x) - F.selu(y * 0.5)


batch_size = 128
channels = 257
length = 16383

# cpu-shrink: --set batch_size=2 --set channels=7 --set length=599


def get_inputs():
    x = torch.randn(batch_size, channels, length, dtype=torch.bfloat16)
    y = torch.randn(batch_size, channels, length, dtype=torch.bfloat16)
    return [x, y]


def get_init_inputs():
    return []
