import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        y = x + 1
          return y
# expect-error: 8:11: unexpected indent
