import torch
import torch.nn as nn

# dtype: fp16


class Model(nn.Module):
    """An Adam-like update on fp16 tensors: a gradient with NaN (log of negative entries) and +-inf (log of a
    0/1 mask) sanitised by nan_to_num (nan=, posinf=, neginf=, and the default nan=0), masks from isnan, isinf,
    isposinf, isneginf, isfinite and logical_xor, moments by lerp (scalar weight) and addcmul, the step by
    addcdiv, then a lerp with a tensor weight back towards the old parameters. Where NaN and inf occur does not
    depend on the dtype, so float64 eager agrees."""

    def __init__(self):
        super().__init__()

    def forward(self, p, g, m, v, w):
        lg = torch.log(g)
        hit = torch.log((g > 1.0).to(g.dtype))
        grad = torch.nan_to_num(lg) + hit.nan_to_num(neginf=-2.0) + torch.nan_to_num(-hit, posinf=0.5) * 0.1
        flags = torch.logical_xor(torch.isnan(lg), hit.isneginf()) | torch.isposinf(-hit)
        finite = torch.isfinite(lg) & ~hit.isinf()
        m = torch.lerp(m, grad, 0.1)
        v = torch.addcmul(v * 0.999, grad, grad, value=0.001)
        p_new = p.addcdiv(m, v.sqrt() + 0.1, value=-0.01)
        p_new = torch.lerp(p_new, p, w)
        return p_new + flags.half() * 0.5 - finite.half() * 0.25


batch_size = 4096
dim = 8192

# cpu-shrink: --set batch_size=37 --set dim=101


def get_inputs():
    return [
        torch.randn(batch_size, dim, dtype=torch.float16),
        torch.randn(batch_size, dim, dtype=torch.float16),
        torch.randn(batch_size, dim, dtype=torch.float16),
        torch.rand(batch_size, dim, dtype=torch.float16),
        torch.rand(batch_size, dim, dtype=torch.float16),
    ]


def get_init_inputs():
    return []
