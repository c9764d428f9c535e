import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """Token routing in bf16: rows picked by an int64 index tensor (x[idx], negative indices counting from the
    end), scaled by their gate (gates[idx]), then the features permuted by Tensor.index_select."""

    def __init__(self):
        super().__init__()

    def forward(self, x, gates, idx, perm):
        routed = x[idx] * gates[idx].unsqueeze(-1)
        return routed.index_select(1, perm)


tokens = 65536
hidden = 4096
picks = 131072

# cpu-shrink: --set tokens=37 --set hidden=53 --set picks=61


def get_inputs():
    return [torch.randn(tokens, hidden, dtype=torch.bfloat16), torch.rand(tokens, dtype=torch.bfloat16),
            torch.randint(-tokens, tokens, (picks,)), torch.randperm(hidden)]


def get_init_inputs():
    return []
