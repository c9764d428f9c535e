"""Every kernel family reading an operand broadcast along every dim it walks (an expanded scalar: all strides 0).

Such an operand gives a kernel a scalar pointer where it expects a tile of them: Triton rejects a block mask on a
scalar pointer, and a tile's outer product or dot needs the tile's shape. The random modules found it in pads
(seed 4804), pooling (seed 6356); a sweep of the families below found convolutions and transposed convolutions,
and a loss over constant targets whose launcher allocated on "cuda" instead of forward's device. Each case runs
through Triton's interpreter against eager PyTorch on the CPU (the corpus protocol) and the static check.
"""

import pytest

from .test_random_modules import check

HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
E3 = "x.expand(3, 5, 7)"  # x is [1, 1, 1] unless the case says otherwise

CASES = {
    "sum_last": f"{E3}.sum(-1)",
    "sum_first": f"{E3}.sum(0)",
    "amax_middle": f"{E3}.amax(1)",
    "mean_all": f"{E3}.mean()",
    "prod": f"{E3}.prod(2)",
    "argmax": f"{E3}.argmax(-1)",
    "argmin_first": f"{E3}.argmin(0)",
    "max_with_indices": f"{E3}.max(1)[0] + {E3}.max(1)[1]",
    "softmax": f"torch.softmax({E3}, -1)",
    "log_softmax_middle": f"torch.log_softmax({E3}, 1)",
    "cumsum": f"{E3}.cumsum(-1)",
    "cumsum_middle": f"{E3}.cumsum(1)",
    "cumprod_first": f"{E3}.cumprod(0)",
    "reverse_cumsum": f"{E3}.flip(-1).cumsum(-1).flip(-1)",
    "cat_sum": f"torch.cat([{E3}, -{E3}], 1).sum(1)",
    "layer_norm": f"F.layer_norm({E3}, (7,))",
    "group_norm": f"F.group_norm({E3}.unsqueeze(-1), 1)",
    "instance_norm": f"F.instance_norm({E3})",
    "batch_norm": f"F.batch_norm({E3}, None, None, training=True)",
    "normalize": f"F.normalize({E3}, dim=1)",
    "frobenius": f"torch.norm({E3})",
    "max_pool2d": f"F.max_pool2d({E3}.unsqueeze(0), 2)",
    "max_pool1d_indices": f"F.max_pool1d({E3}, 2, return_indices=True)[1]",
    "avg_pool1d_padded": f"F.avg_pool1d({E3}, 3, 2, 1)",
    "adaptive_avg_pool1d": f"F.adaptive_avg_pool1d({E3}, 3)",
    "adaptive_max_pool2d": f"F.adaptive_max_pool2d({E3}.unsqueeze(0), 2)",
    "matmul": (f"{E3} @ x.view(1, 1).expand(7, 4)"),
    "bmm": f"torch.bmm({E3}, {E3}.transpose(1, 2))",
    "tril_of_product": f"torch.tril({E3} @ {E3}.transpose(1, 2))",
    "linear": f"F.linear({E3}, x.view(1, 1).expand(2, 7))",
    "conv1d": f"F.conv1d({E3}, x.view(1, 1, 1).expand(4, 5, 3))",
    "conv2d_padded": f"F.conv2d({E3}.unsqueeze(0), x.view(1, 1, 1, 1).expand(2, 3, 2, 2), padding=1)",
    "conv_transpose1d": f"F.conv_transpose1d({E3}, x.view(1, 1, 1).expand(5, 2, 3), stride=2)",
    "sdpa": f"F.scaled_dot_product_attention({E3}, {E3}, {E3})",
    "sdpa_causal": f"F.scaled_dot_product_attention({E3}, {E3}, {E3}, is_causal=True)",
    "mse": f"F.mse_loss({E3}, {E3} * 2)",
    "cross_entropy_constant_targets": "F.cross_entropy(x.view(1, 1).expand(4, 6), torch.zeros(4, dtype=torch.long))",
    "kl_div": f"F.kl_div({E3}, {E3}.exp(), reduction='batchmean')",
    "cosine_similarity": f"F.cosine_similarity({E3}, {E3} + 1)",
    "triplet": "F.triplet_margin_loss(x.view(1, 1).expand(4, 6), x.view(1, 1).expand(4, 6) * 2, "
               "x.view(1, 1).expand(4, 6) - 1)",
}


def source(expression):
    return (HEADER + "class Model(nn.Module):\n    def forward(self, x):\n        return " + expression + "\n\n\n"
            "def get_inputs():\n    return [torch.randn(1, 1, 1)]\n\n\ndef get_init_inputs():\n    return []\n")


@pytest.mark.parametrize("name", sorted(CASES))
def test_broadcast_operand(name, tmp_path):
    check(tmp_path, name, source(CASES[name]), may_reject=False)
