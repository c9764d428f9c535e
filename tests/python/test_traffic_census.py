"""scripts/traffic_census.py: the bytes a generated file's launches can move, over the problem's own bytes."""
import importlib.util
from pathlib import Path

from harness_paths import REPO

PROBLEM = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return (x + 1.0) * 2.0


def get_inputs():
    return [torch.randn(64, 32)]


def get_init_inputs():
    return []
'''

# A generated file in the shape tritonize writes, whose forward launches two kernels: the first writes an
# intermediate buffer that the second reads (64 * 32 fp32 = 8192 bytes a tensor).
GENERATED = '''import torch
import torch.nn as nn


def _launch(kernel, grid, args, options):
    raise AssertionError("replaced by the census")


def first_kernel():
    pass


def second_kernel():
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        buf0 = torch.empty_like(x)
        _launch(first_kernel, (1,), dict(x_ptr=x, buf0_ptr=buf0, N=2048), dict(num_warps=4))
        buf1 = torch.empty_like(x)
        _launch(second_kernel, (1,), dict(x_ptr=buf0, y_ptr=buf0, buf1_ptr=buf1, N=2048), dict(num_warps=4))
        return buf1
'''


def load_census():
    spec = importlib.util.spec_from_file_location("traffic_census", Path(REPO) / "scripts" / "traffic_census.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_intermediate_buffer_counts_twice(tmp_path):
    (tmp_path / "p.py").write_text(PROBLEM)
    (tmp_path / "g.py").write_text(GENERATED)
    problem_bytes, launches = load_census().traffic(str(tmp_path / "p.py"), str(tmp_path / "g.py"))
    assert problem_bytes == 2 * 8192  # x in, the result out
    # the first launch moves x and buf0; the second buf0 (passed twice, counted once) and buf1
    assert launches == [("first_kernel", 2 * 8192), ("second_kernel", 2 * 8192)]
