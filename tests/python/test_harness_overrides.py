"""`check --set NAME=VALUE`: the reference copy assigns the new values, as `tritonize convert --set` does."""
import importlib.util

import pytest

import harness_paths  # noqa: F401  (puts python/ on sys.path)

from tritonize.problem import with_overrides

SOURCE = """import torch
batch, dim = 1000, 3000
hidden = 64
def get_inputs():
    return [torch.randn(batch, dim, hidden)]
"""


def load(path):
    spec = importlib.util.spec_from_file_location("overridden", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_overrides_simple_and_tuple_assignments(tmp_path):
    ref = tmp_path / "ref.py"
    ref.write_text(SOURCE)
    out = with_overrides(str(ref), ["hidden=5", "dim=7"], str(tmp_path / "work"))
    module = load(out)
    assert (module.batch, module.dim, module.hidden) == (1000, 7, 5)
    assert ref.read_text() == SOURCE  # the original is untouched


def test_unknown_name_is_an_error(tmp_path):
    ref = tmp_path / "ref.py"
    ref.write_text(SOURCE)
    with pytest.raises(ValueError, match="no module-level constant named 'width'"):
        with_overrides(str(ref), ["width=3"], str(tmp_path / "work"))
