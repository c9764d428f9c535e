"""Cooperative rows (kernel/lower_reduction.cpp): rows of 40000 or more elements read more than once are split over
programs that exchange partial reductions through a counter. Under Triton's interpreter a row is one group of one
(programs run one after another, so none may wait), which still runs the exchange code: partials stored, the
counter counted in, partials loaded back and combined; a softmax's max and sum of exp in one exchange (online),
other reductions one each. Checked against PyTorch on inputs with -inf and NaN rows (the online rescaling's edge
cases). Groups of several programs cannot wait for each other in the interpreter; test_cooperative_rows_in_groups
runs them anyway, in chunks of 4096, by launching the kernel three times with the counters filled so that no
program waits: launch k + 1 reads every partial of exchange k from launch k (each program rewrites its own with
the same value), so after one launch per exchange (two here at most) and one more the output must be right; that checks the chunking, masking and the combine (the online softmax's rescaling
by exp(m_c - M) included). On the GPU: docs/RESULTS.md (softmax_long_rows, log_softmax_lastdim)."""


import json
import os
import subprocess
import sys

from .paths import convert_forward, run_interpreted

# (forward expression, input shape, input fix-up on x (randn), exchanges expected in the kernel)
# (rows under 65536 elements: passes/split_reduce.cpp splits longer rows when there are few of them)
CASES = [
    ("torch.softmax(x, dim=-1)", (3, 40961), "x[1] = float('-inf'); x[2, :9000] = float('-inf')", 1),
    ("torch.log_softmax(x * 3.0, dim=1)", (2, 50257), "x[1, 7] = float('nan')", 1),
    ("torch.nn.functional.layer_norm(x, (40960,))", (3, 40960), "x[2] += 100.0", 2),
]

RUNNER = r"""
import importlib.util, json, sys
import torch, triton
GROUPS = sys.argv[2] == "groups"


class Repeated:  # launches the kernel once per exchange, and once more
    def __init__(self, kernel):
        self.kernel = kernel

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            for _ in range(3):
                self.kernel[grid](*args, **kwargs)
        return launch


class Fill:  # stands in for _zero_counts_kernel: counters so high that nobody waits
    def __getitem__(self, grid):
        return lambda count_ptr, N, BLOCK, num_warps: count_ptr.fill_(1 << 20)


results = []
for path, call, shape, fix in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    if GROUPS:
        name = next(n for n in dir(m) if n.endswith("_kernel") and n != "_zero_counts_kernel")
        setattr(m, name, Repeated(getattr(m, name)))
        m._coop_split = lambda kernel, size, chunk: (triton.cdiv(size, 4096), 4096)
        m._zero_counts_kernel = Fill()
    torch.manual_seed(0)
    x = torch.randn(*shape)
    exec(fix, {"x": x})
    ref = eval(call, {"torch": torch, "x": x})
    got = m.ModelNew()(x)
    ok = got.shape == ref.shape and torch.allclose(got, ref, atol=1e-5, rtol=1e-5, equal_nan=True)
    diff = (got - ref).abs().nan_to_num(0.0).max().item()
    results.append(None if ok else f"{call} on {list(shape)} ({fix}): max diff {diff:.3g}")
print(json.dumps(results))
"""


def run_cases(tmp_path, mode):
    jobs = []
    for i, (call, shape, fix, exchanges) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}")
        text = out.read_text()
        assert "_coop_split(" in text, f"{call} on {shape}: not cooperative"
        assert text.count('sem="acq_rel"') == exchanges, f"{call}: expected {exchanges} exchange(s)\n{text}"
        jobs.append((str(out), call, shape, fix))
    failures = run_interpreted(RUNNER, jobs, mode)
    assert not failures, "\n".join(failures)


def test_cooperative_rows(tmp_path):
    run_cases(tmp_path, "one")


def test_cooperative_rows_in_groups(tmp_path):
    run_cases(tmp_path, "groups")


COMPILED = r"""
import importlib.util, json, sys
import torch, triton
torch.cuda.is_available = lambda: True  # as on a GPU machine; this process does not run under the interpreter
spec = importlib.util.spec_from_file_location("generated", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
name = next(n for n in dir(m) if n.endswith("_kernel") and n != "_zero_counts_kernel")
print(json.dumps([m._interpreted(getattr(m, name)), m._coop_split(getattr(m, name), 40961, 4096)]))
"""


def test_compiled_kernels_are_not_interpreted(tmp_path):
    # The launcher's test for the interpreter must hold without it: a JITFunction kernel on a CUDA machine is
    # split into groups (it once named triton.runtime.interpreter, a module only the interpreter imports).
    out = convert_forward(tmp_path, "compiled", CASES[0][0], f"torch.randn{CASES[0][1]}")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    run = subprocess.run([sys.executable, "-c", COMPILED, str(out)], capture_output=True, text=True, env=env,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == [False, [11, 4096]]
