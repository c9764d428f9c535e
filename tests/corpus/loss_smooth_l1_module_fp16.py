import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.SmoothL1Loss() (beta=1, mean) on fp16 inputs."""

    def __init__(self):
        super().__init__()
        self.loss_fn = nn.SmoothL1Loss()

    def forward(self, predictions, targets):
        return self.loss_fn(predictions, targets)


batch_size = 65536
dim = 8192

# dtype: fp16
# cpu-shrink: --set batch_size=37 --set dim=211


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=torch.float16), torch.randn(batch_size, dim, dtype=torch.float16)]


def get_init_inputs():
    return []
