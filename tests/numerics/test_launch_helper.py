"""The generated `_launch` off the interpreter, on the CPU: Triton's JIT launch (JITFunction.run) and its driver are
replaced by recorders, so what `_launch` asks of them can be checked without a GPU. The first launch of a signature
must go through Triton (which compiles and returns the compiled kernel); a repeat must call the compiled kernel's
launcher with Triton's own argument convention (grid padded to three, stream, function, packed metadata, no launch
metadata or hooks, then every argument in the kernel's parameter order); a new alignment, dtype or device must go
through Triton again, and so must every launch while a launch hook is set."""

import json
import os
import subprocess
import sys

from .paths import ROOT, TRITONIZE

SOURCE = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x * 2.0, dim=-1)


def get_inputs():
    return [torch.randn(6, 40)]


def get_init_inputs():
    return []
'''

SCRIPT = r'''
import importlib.util, json, sys
import torch, triton

calls = []


class Compiled:
    function, packed_metadata = "FUNCTION", "PACKED"

    def run(self, *args):
        calls.append(["compiled"] + [describe(a) for a in args])


def describe(a):
    if isinstance(a, torch.Tensor):
        return ["tensor", a.data_ptr() % 16, str(a.dtype)]
    return a


def jit_run(self, *args, grid, warmup, **kwargs):
    calls.append(["triton", self.__name__, list(grid), sorted(kwargs)])
    return Compiled()


class Driver:
    device = 0

    def get_current_device(self):
        return Driver.device

    def get_current_stream(self, device):
        return 1000 + device


triton.runtime.JITFunction.run = jit_run
triton.runtime.driver.set_active(Driver())
spec = importlib.util.spec_from_file_location("generated", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
model = m.ModelNew()
x = torch.randn(6, 40)
steps = {}
for step, run in [
    ("first", lambda: model(x)),
    ("repeat", lambda: model(x)),
    ("misaligned", lambda: model(torch.randn(6 * 40 + 1)[1:].view(6, 40))),
    ("misaligned_repeat", lambda: model(torch.randn(6 * 40 + 1)[1:].view(6, 40))),
    ("half", lambda: model(x.half())),
    ("other_device", lambda: (setattr(Driver, "device", 1), model(x))),
    ("hook", lambda: (triton.knobs.runtime.launch_enter_hook.add(print), model(x))),
]:
    calls.clear()
    run()
    steps[step] = list(calls)
print(json.dumps(steps))
'''


def test_launch_paths(tmp_path):
    model = tmp_path / "softmax.py"
    model.write_text(SOURCE)
    gen = tmp_path / "softmax_triton.py"
    subprocess.run([str(TRITONIZE), "convert", str(model), "-o", str(gen)], check=True)
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(gen)], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    steps = json.loads(r.stdout.strip().splitlines()[-1])
    assert [c[0] for c in steps["first"]] == ["triton"]
    assert steps["first"][0][2:] == [[1], ["BLOCK_M", "BLOCK_R", "M", "R", "buf0_ptr", "num_warps", "x_ptr"]]
    # the compiled kernel's launcher, as JITFunction.run calls it: grid to three, stream, function, metadata,
    # launch metadata and the two hooks (none), then the arguments in the kernel's parameter order
    (repeat,) = steps["repeat"]
    assert repeat[:10] == ["compiled", 1, 1, 1, 1000, "FUNCTION", "PACKED", None, None, None]
    assert repeat[10:12] == [["tensor", 0, "torch.float32"], ["tensor", 0, "torch.float32"]]
    assert repeat[12:] == [40, 64, 6, 8]  # R, BLOCK_R, M, BLOCK_M as printed
    assert [c[0] for c in steps["misaligned"]] == ["triton"]  # Triton specializes on 16-byte alignment
    assert [c[0] for c in steps["misaligned_repeat"]] == ["compiled"]
    assert [c[0] for c in steps["half"]] == ["triton"]
    assert [c[0] for c in steps["other_device"]] == ["triton"]
    assert [c[0] for c in steps["hook"]] == ["triton"]
