import torch
import torch.nn as nn

# dtype: bf16


class Model(nn.Module):
    """Cosine similarity loss on bf16 [B, S, D] embeddings, 1 - torch.cosine_similarity(x1, x2, dim=-1) with
    x2 = x1 + 2 * noise (cos near 0.45): reduction 'sum' and 'none' (one loss per position)."""

    def __init__(self):
        super().__init__()

    def forward(self, x1, noise):
        loss = 1 - torch.cosine_similarity(x1, x1 + 2.0 * noise, dim=-1)
        return loss.sum(), loss


batch_size = 32
seq_len = 4096
dim = 4095

# cpu-shrink: --set batch_size=3 --set seq_len=23 --set dim=131


def get_inputs():
    return [torch.randn(batch_size, seq_len, dim, dtype=torch.bfloat16),
            torch.randn(batch_size, seq_len, dim, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
