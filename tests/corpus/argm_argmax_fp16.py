import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """Greedy token choice: argmax over the vocabulary of fp16 logits."""

    def __init__(self):
        super().__init__()

    def forward(self, logits):
        return logits.argmax(dim=-1)


batch_size = 16384
vocab = 50257

# cpu-shrink: --set batch_size=23 --set vocab=517


def get_inputs():
    return [torch.randn(batch_size, vocab, dtype=torch.float16)]


def get_init_inputs():
    return []
