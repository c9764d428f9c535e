"""Every torch / F / tensor-method spelling the tracer may meet, called with argument lists a module file could
hold (none, numbers only, tensors of other ranks, dtypes and shapes, bad dims, strings, None, lists, keywords):
`tritonize convert` must either convert or print a located `file:line:col: error:` and exit 1 with no output file.
A signal, an internal error, an unlocated error, a partial output file or a hang fails. (Found: torch.pow(2.0, 3.0)
crashed the tracer.) The fuzzers (tests/fuzz/) mutate text; this walks the API on purpose."""

import os

import pytest

from .paths import TRITONIZE
from .random_modules import convert

TORCH = """abs exp log log2 log1p expm1 sqrt rsqrt sin cos tan tanh sigmoid relu neg reciprocal sign floor ceil round
trunc erf square clamp clip clamp_min clamp_max maximum minimum fmax fmin pow add sub subtract mul multiply div divide
true_divide where sum mean amax amin max min prod std var logsumexp cumsum cumprod softmax log_softmax argmax argmin
matmul mm bmm einsum cat concat stack flip tril triu norm dot mv outer addmm baddbmm diag transpose permute reshape
flatten squeeze unsqueeze narrow select split chunk t eq ne lt le gt ge logical_and logical_or logical_not isnan isinf
nan_to_num full_like zeros_like ones_like empty_like rand_like randn_like lerp hypot atan2 remainder fmod exp2 sinh
cosh""".split()
FUNCTIONAL = """relu relu6 gelu silu leaky_relu elu selu celu softplus hardtanh hardsigmoid hardswish mish softsign tanh
sigmoid logsigmoid softmax log_softmax mse_loss l1_loss smooth_l1_loss huber_loss cross_entropy nll_loss kl_div
cosine_similarity triplet_margin_loss cosine_embedding_loss pairwise_distance conv1d conv2d conv3d conv_transpose1d
conv_transpose2d conv_transpose3d max_pool1d max_pool2d max_pool3d avg_pool1d avg_pool2d avg_pool3d adaptive_avg_pool1d
adaptive_avg_pool2d adaptive_avg_pool3d adaptive_max_pool1d adaptive_max_pool2d adaptive_max_pool3d layer_norm
group_norm batch_norm instance_norm normalize linear scaled_dot_product_attention dropout rms_norm pad""".split()
METHODS = """sum mean amax max min prod softmax argmax cumsum view reshape permute transpose expand expand_as repeat flatten
unsqueeze squeeze contiguous float half bfloat16 to clamp pow abs exp matmul mm bmm t type_as masked_fill add mul div
sub where norm flip tril triu narrow select chunk split size dim numel new_zeros new_ones new_full clone detach fill_
add_ mul_ copy_ index_select gather scatter sort topk all any""".split()
ARGS = ["", "1.0", "1.0, 2.0", "2, 3", "x", "x, x", "x, 1.0", "1.0, x", "x, x, x", "x, 1", "x, -7", "x, 100",
        "x, dim=1", "x, dim=(0, 1)", "x, None", "x, 'a'", "x, [1, 2]", "x, (2, 2)", "x, x.shape", "x, 0", "x, True",
        "x.int()", "x.int(), x", "x, 2, 3, 4", "x.view(-1)", "x[0, 0]", "x, x[0, 0]", "x[0, 0], x", "x, x.int()",
        "x, y", "y, x", "x, dim=-3", "x, 1, keepdim=True", "x, x, reduction='bad'", "x.bool()", "x, x.bool()",
        "x.half(), x", "x, 2.5", "x, float('nan')", "x, x, x, x, x, x, x"]
METHOD_ARGS = ["", "1", "-1", "0, 1", "1.0", "x", "None", "'a'", "[1, 2]", "(2, 2)", "2, 3, 4", "dim=5", "x.int()",
               "torch.float16", "x, x", "y", "x > 0, 1.0", "1, keepdim=True", "-7", "100"]
SOURCE = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def forward(self, x, y):
        return {expression}


def get_inputs():
    return [torch.randn(3, 4, 5), torch.randn(4, 5)]


def get_init_inputs():
    return []
"""
EXPRESSIONS = ([f"torch.{n}({a})" for n in TORCH for a in ARGS] + [f"F.{n}({a})" for n in FUNCTIONAL for a in ARGS] +
               [f"x.{n}({a})" for n in METHODS for a in METHOD_ARGS])
SHARDS = 4


def conversion(source, tmp_path):
    """convert()'s (status, message) for this module source: "ok", "rejected" or "crash"."""
    model, out = tmp_path / "model.py", tmp_path / "out.py"
    model.write_text(source)
    if out.exists():
        os.remove(out)
    return convert(TRITONIZE, model, out, timeout=30)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_api_calls_convert_or_fail_cleanly(tmp_path, shard):
    bad = []
    for expression in EXPRESSIONS[shard::SHARDS]:
        status, message = conversion(SOURCE.format(expression=expression), tmp_path)
        if status == "crash":
            bad.append(f"{expression}: {message.strip()[:200]}")
    assert not bad, f"{len(bad)} of {len(EXPRESSIONS[shard::SHARDS])} calls:\n" + "\n".join(bad)

MODULES = """BatchNorm1d BatchNorm2d BatchNorm3d Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d Dropout
Flatten GELU GroupNorm Hardtanh Identity InstanceNorm1d InstanceNorm2d InstanceNorm3d LayerNorm Linear LogSoftmax RMSNorm
ReLU SiLU Sigmoid Softmax Tanh MaxPool1d MaxPool2d MaxPool3d AvgPool1d AvgPool2d AvgPool3d AdaptiveAvgPool1d
AdaptiveAvgPool2d AdaptiveMaxPool2d LeakyReLU ELU SELU CELU Softplus Hardsigmoid Hardswish Mish Softsign ReLU6""".split()
CONSTRUCTOR_ARGS = ["", "0", "-1", "4", "4, 4", "5, 4", "4, 0", "4, 4, 3", "4, 4, 3, stride=0",
                    "4, 4, 3, padding=-1", "4, 4, 3, groups=3", "4, 4, 3, dilation=0", "4, 4, 'a'", "None",
                    "4, bias=False", "4, eps=-1.0", "2, 4", "4, 4, 3, padding='same', stride=2", "1.5", "[4]",
                    "(4, 5)", "4, 4, 3, output_padding=5", "4, momentum=None", "3, stride=0", "3, padding=5"]
MODULE_SOURCE = """import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = nn.{module}({args})

    def forward(self, x):
        return self.m(x)


def get_inputs():
    return [{input}]


def get_init_inputs():
    return []
"""
MODULE_CASES = [(m, a, i) for m in MODULES for a in CONSTRUCTOR_ARGS
                for i in ("torch.randn(2, 4)", "torch.randn(2, 4, 5, 6)")]


def eager_error(module, args, input_expression):
    """What eager PyTorch says of this module on this input (None: it runs). (Left out of the cases: True, which
    tritonize takes where PyTorch's argument parser wants an int, as Python does; and device arguments, which
    tritonize leaves to the caller's .to().)"""
    import torch
    import torch.nn as nn
    try:
        with torch.no_grad():
            eval(f"nn.{module}({args})", {"nn": nn})(eval(input_expression, {"torch": torch}))
        return None
    except Exception as e:  # noqa: BLE001 -- any refusal of eager's counts
        return f"{type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"


@pytest.mark.parametrize("shard", range(SHARDS))
def test_module_constructors_convert_or_fail_like_pytorch(tmp_path, shard):
    """nn modules built with odd constructor arguments: no crash, and what eager PyTorch refuses, tritonize refuses
    with a located error (found: batch_norm eps <= 0, Hardtanh(4, 4), ELU(None), AdaptiveAvgPool2d([4]) were
    converted)."""
    bad = []
    for module, args, input_expression in MODULE_CASES[shard::SHARDS]:
        status, message = conversion(MODULE_SOURCE.format(module=module, args=args, input=input_expression),
                                     tmp_path)
        what = f"nn.{module}({args}) on {input_expression}"
        if status == "crash":
            bad.append(f"{what}: {message.strip()[:200]}")
        elif status == "ok":
            refusal = eager_error(module, args, input_expression)
            if refusal is not None:
                bad.append(f"{what}: converted, but eager PyTorch raises {refusal}")
    assert not bad, f"{len(bad)} of {len(MODULE_CASES[shard::SHARDS])} modules:\n" + "\n".join(bad)
