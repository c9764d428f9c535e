"""torch.var / torch.std and their method spellings against eager PyTorch (Triton's interpreter, CPU protocol):
dims (one, several, negative, none), keepdim, unbiased (positional and keyword), correction, 16-bit inputs,
long rows; and the located rejections (integer and float64 inputs, a correction that leaves no degree of freedom).
"""

import pytest

from .random_modules import convert
from .paths import TRITONIZE
from .test_random_modules import check

HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"


def source(expression, inputs):
    return (HEADER + "class Model(nn.Module):\n    def forward(self, x):\n        return " + expression + "\n\n\n"
            "def get_inputs():\n    return [" + inputs + "]\n\n\ndef get_init_inputs():\n    return []\n")


CASES = {
    "var_all": ("torch.var(x)", "torch.randn(6, 33)"),
    "var_last_keepdim_biased": ("x.var(-1, keepdim=True, unbiased=False)", "torch.randn(6, 33)"),
    "var_dim0_positional_unbiased": ("torch.var(x, 0, False)", "torch.randn(6, 33) * 3 + 10"),
    "var_bool_second": ("x.var(False) + x.var(True)", "torch.randn(5, 7)"),
    "var_dims_correction": ("torch.var(x, dim=(0, 2), correction=2, keepdim=True)", "torch.randn(4, 3, 9)"),
    "var_middle_fp16": ("x.var(1)", "torch.randn(4, 37, 5, dtype=torch.float16)"),
    "std_last": ("torch.std(x, -1)", "torch.randn(8, 100)"),
    "std_method_bf16_keepdim": ("x.std(dim=[1, 2], keepdim=True)", "torch.randn(3, 4, 50, dtype=torch.bfloat16)"),
    "std_long_rows_offset": ("x.std(1, correction=0)", "torch.randn(4, 20000) + 100"),
    "handwritten_layer_norm": ("(x - x.mean(-1, keepdim=True)) / torch.sqrt(x.var(-1, keepdim=True, unbiased=False)"
                               " + 1e-5)", "torch.randn(16, 64)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_variance(name, tmp_path):
    expression, inputs = CASES[name]
    check(tmp_path, name, source(expression, inputs), may_reject=False)


REJECTED = {
    "var_of_int": ("x.var()", "torch.randint(0, 5, (4, 4))", "var of a torch.int64 tensor is not supported"),
    "std_of_float64": ("x.std()", "torch.randn(4, 4, dtype=torch.float64)", "float64 tensors are not supported"),
    "var_no_freedom": ("x.var(1)", "torch.randn(4, 1)", "var over 1 value(s) with correction 1 divides by zero"),
    "var_unbiased_and_correction": ("x.var(0, unbiased=True, correction=1)", "torch.randn(4, 4)",
                                    "unbiased and correction cannot both be given"),
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_variance_rejected(name, tmp_path):
    expression, inputs, message = REJECTED[name]
    ref = tmp_path / f"{name}.py"
    ref.write_text(source(expression, inputs))
    status, text = convert(TRITONIZE, ref, tmp_path / f"{name}_triton.py")
    assert status == "rejected", text  # (a located error, no output file: random_modules.convert)
    assert message in text, text
