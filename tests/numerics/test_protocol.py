"""The numerics runner itself: it must pass a correct hand-written generated file (fixtures/), and reject
wrong ones. The wrong ones are mutants of the correct file, each one realistic bug, made here by replacing one
piece of its text, so that the runner is shown to catch that kind of bug and to say which stage it broke in.
"""

import pytest

from .paths import EXAMPLES, FIXTURES
from .protocol import format_failure, parse_overrides, run_protocol
from .static_check import check_source

REFERENCE = EXAMPLES / "linear_gelu.py"
GOOD = FIXTURES / "linear_gelu_triton.py"
# Odd sizes: two programs on each axis of the 32x32 tiles, and a K loop whose last tile is masked.
SHRINK = ["batch=37", "in_features=50", "out_features=45"]

# name: (old text, new text, stage where the runner must reject it, words its message must contain)
MUTANTS = {
    # The loop stops before the ragged last K tile: right for K a multiple of BLOCK_K, wrong for K=50.
    "k_tail_dropped": ("for k0 in range(0, K, BLOCK_K):", "for k0 in range(0, K - BLOCK_K + 1, BLOCK_K):",
                       "forward", "not allclose"),
    # A GELU approximation: about 1e-2 off, far above fp32's 1e-4.
    "gelu_approximation": ("y = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476)) * scale[None, :]",
                           "y = h * tl.sigmoid(1.702 * h) * scale[None, :]", "forward", "not allclose"),
    # The bias drawn from the wrong range: same names and shapes, different values.
    "init_bias_bound": ("bound = 1 / math.sqrt(in_features) if in_features > 0 else 0",
                        "bound = 1 / in_features if in_features > 0 else 0", "init", "values differ"),
    # The random draws in another order: every value differs.
    "init_draw_order": ("        nn.init.kaiming_uniform_(self.fc.weight, a=math.sqrt(5))\n",
                        "", "init", "values differ"),
    # A parameter under another name: load_state_dict(Model().state_dict()) would break.
    "param_renamed": ("self.scale = nn.Parameter(torch.randn(out_features).mul_(0.1))",
                      "self.gain = nn.Parameter(torch.randn(out_features).mul_(0.1))\n        self.scale = self.gain",
                      "init", "state_dict names differ"),
    # The output in the wrong dtype.
    "output_dtype": ("y = torch.empty((m, n), device=x.device, dtype=x.dtype)",
                     "y = torch.empty((m, n), device=x.device, dtype=torch.float64)", "forward", "dtype"),
}


def mutate(tmp_path, name, old, new):
    text = GOOD.read_text()
    assert text.count(old) == 1, f"mutant {name}: the fixture no longer contains its text exactly once"
    path = tmp_path / f"linear_gelu_{name}.py"
    path.write_text(text.replace(old, new))
    return path


def test_fixture_passes():
    result = run_protocol(REFERENCE, GOOD, SHRINK)
    assert result["ok"], format_failure(result)
    assert result["stage"] == "done" and len(result["trials"]) == 5
    assert result["tolerance"] == 1e-4
    assert result["max_abs_diff"] < 1e-5


def test_fixture_is_statically_clean():
    assert check_source(GOOD.read_text()) == []


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_rejected(tmp_path, name):
    old, new, stage, words = MUTANTS[name]
    result = run_protocol(REFERENCE, mutate(tmp_path, name, old, new), SHRINK)
    assert not result["ok"], f"mutant {name} passed the protocol: {result['message']}"
    assert result["stage"] == stage, format_failure(result)
    assert words in result["message"], format_failure(result)


def test_torch_in_forward_rejected_statically(tmp_path):
    # Numerically right, but part of the work runs in PyTorch: only the static check can tell.
    path = mutate(tmp_path, "torch_epilogue",
                  "return linear_gelu_scale(x, self.fc.weight, self.fc.bias, self.scale)",
                  "return linear_gelu_scale(x, self.fc.weight, self.fc.bias, torch.ones_like(self.scale)) * self.scale")
    result = run_protocol(REFERENCE, path, SHRINK)
    assert result["ok"], format_failure(result)
    problems = check_source(path.read_text())
    assert any("torch.ones_like" in p for p in problems), problems
    assert any("arithmetic" in p for p in problems), problems


def test_hung_kernel_times_out(tmp_path):
    path = mutate(tmp_path, "hang", "for k0 in range(0, K, BLOCK_K):", "k0 = 0\n    while k0 < K:  # never advances")
    result = run_protocol(REFERENCE, path, SHRINK, timeout=8)
    assert not result["ok"] and result["stage"] == "timeout", format_failure(result)


def test_bad_override_is_reported():
    result = run_protocol(REFERENCE, GOOD, ["no_such_constant=3"])
    assert not result["ok"] and result["stage"] == "load"
    assert "no module-level name no_such_constant" in result["message"]


def test_parse_overrides():
    assert parse_overrides(["a=2", "b=0.5", "c=(1, 2)", "d='x'", "e=True"]) == \
        {"a": 2, "b": 0.5, "c": (1, 2), "d": "x", "e": True}
    with pytest.raises(ValueError):
        parse_overrides(["a"])
    with pytest.raises(ValueError):
        parse_overrides(["a=torch.float16"])
