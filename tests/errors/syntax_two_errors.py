import torch
import torch.nn as nn

x = (1 +
def get_inputs():
    return [torch.randn(4, 4)]

y = ]
# expect-error: 4:5: '(' was never closed
# expect-error: 8:5: unexpected token ']'
