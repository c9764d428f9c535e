"""Every torch / F / tensor-method spelling the tracer may meet, called with argument lists a module file could
hold (none, numbers only, tensors of other ranks, dtypes and shapes, bad dims, strings, None, lists, keywords):
`tritonize convert` must either convert or print a located `file:line:col: error:` and exit 1 with no output file.
A signal, an internal error, an unlocated error, a partial output file or a hang fails. (Found: torch.pow(2.0, 3.0)
crashed the tracer.) The fuzzers (tests/fuzz/) mutate text; this walks the API on purpose."""

import os
import re
import subprocess

import pytest

from .paths import TRITONIZE

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
LOCATED = re.compile(r"^\S+:\d+:\d+: error: ", re.MULTILINE)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_api_calls_convert_or_fail_cleanly(tmp_path, shard):
    model, out = tmp_path / "model.py", tmp_path / "out.py"
    bad = []
    for expression in EXPRESSIONS[shard::SHARDS]:
        model.write_text(SOURCE.format(expression=expression))
        if out.exists():
            os.remove(out)
        try:
            r = subprocess.run([str(TRITONIZE), "convert", str(model), "-o", str(out)], capture_output=True,
                               text=True, timeout=30)
        except subprocess.TimeoutExpired:
            bad.append(f"{expression}: no answer in 30 s")
            continue
        text = r.stderr + r.stdout
        first = text.strip().splitlines()[0][:160] if text.strip() else "(no output)"
        if r.returncode not in (0, 1) or "internal error" in text:
            bad.append(f"{expression}: exit {r.returncode}: {first}")
        elif r.returncode == 1 and (not LOCATED.search(text) or out.exists()):
            bad.append(f"{expression}: {'an output file was written' if out.exists() else 'unlocated'}: {first}")
    assert not bad, f"{len(bad)} of {len(EXPRESSIONS[shard::SHARDS])} calls:\n" + "\n".join(bad)
