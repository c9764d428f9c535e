"""F.group_norm / nn.GroupNorm with one group per channel over an input without spatial dims: each group is a
single value, which PyTorch normalises to 0 (its mean is the value, its variance 0), then scales and shifts (with
one value per group in all, PyTorch raises: tests/errors/group_norm_one_value.py). Converted and run by Triton's
interpreter under the corpus protocol against eager (which fails any NaN output, so inputs stay finite)."""

import pytest

from .paths import TRITONIZE
from .protocol import format_failure, run_protocol
from .random_modules import convert

SOURCE = '''import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(6, 6)
        nn.init.uniform_(self.gn.weight, 0.5, 1.5)
        nn.init.uniform_(self.gn.bias, -1.0, 1.0)

    def forward(self, x):
        return self.gn(x) + F.group_norm(x.half(), 6).float() * 2.0, F.group_norm(x * {scale}, 6)


def get_inputs():
    return [torch.randn(5, 6)]


def get_init_inputs():
    return []
'''


@pytest.mark.parametrize("scale", ["1.0", "-50.0"])
def test_group_norm_of_single_values(tmp_path, scale):
    ref = tmp_path / "model.py"
    ref.write_text(SOURCE.replace("{scale}", scale))
    gen = tmp_path / "model_triton.py"
    status, message = convert(TRITONIZE, ref, gen)
    assert status == "ok", message
    result = run_protocol(ref, gen)
    assert result["ok"], format_failure(result)
