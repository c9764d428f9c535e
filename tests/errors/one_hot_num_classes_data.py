import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x):
        return F.one_hot(x)


def get_inputs():
    return [torch.randint(0, 5, (4, 3))]


def get_init_inputs():
    return []
# expect-error: 8:16: F.one_hot with num_classes=-1 sizes its result by the largest value
