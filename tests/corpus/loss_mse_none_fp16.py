import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """F.mse_loss(reduction='none') on fp16 tensors: the elementwise squared error, no reduction."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return F.mse_loss(predictions, targets, reduction="none")


batch_size = 65536
dim = 8192

# dtype: fp16
# cpu-shrink: --set batch_size=33 --set dim=131


def get_inputs():
    return [torch.randn(batch_size, dim, dtype=torch.float16), torch.randn(batch_size, dim, dtype=torch.float16)]


def get_init_inputs():
    return []
