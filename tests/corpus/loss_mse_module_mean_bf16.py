import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.MSELoss() (reduction='mean') on bf16 inputs: fp32 accumulation, one bf16 result."""

    def __init__(self):
        super().__init__()
        self.criterion = nn.MSELoss()

    def forward(self, predictions, targets):
        return self.criterion(predictions, targets)


batch_size = 65536
dim = 8192

# dtype: bf16
# cpu-shrink: --set batch_size=41 --set dim=203


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=torch.bfloat16), torch.randn(batch_size, dim, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
