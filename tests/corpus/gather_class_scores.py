import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Per-row class scores: the target's log-probability picked by Tensor.gather, its margin over the top logit
    (torch.take_along_dim at the argmax, torch.gather at the target), and the probability mass of a class subset
    (torch.index_select)."""

    def __init__(self):
        super().__init__()

    def forward(self, logits, targets, subset):
        logp = F.log_softmax(logits, dim=-1)
        picked = logp.gather(1, targets.unsqueeze(1)).squeeze(1)
        top = torch.take_along_dim(logits, logits.argmax(dim=1, keepdim=True), dim=1).squeeze(1)
        margin = torch.gather(logits, dim=1, index=targets[:, None]).squeeze(1) - top
        mass = torch.index_select(logp, 1, subset).exp().sum(dim=1)
        return picked, margin, mass


batch_size = 8192
num_classes = 32000
subset_size = 4096

# cpu-shrink: --set batch_size=37 --set num_classes=131 --set subset_size=19


def get_inputs():
    return [torch.randn(batch_size, num_classes), torch.randint(0, num_classes, (batch_size,)),
            torch.randint(0, num_classes, (subset_size,))]


def get_init_inputs():
    return []
