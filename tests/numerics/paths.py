"""Paths shared by the numerics tests."""

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = ROOT / "tests" / "corpus"
FIXTURES = HERE / "fixtures"
EXAMPLES = ROOT / "examples"
TRITONIZE = Path(os.environ.get("TRITONIZE_BIN", ROOT / "build" / "tritonize"))


def convert_forward(tmp_path, name: str, expression: str, input_expression: str, params: str = "x") -> Path:
    """Writes a problem whose forward(`params`) returns `expression` (get_inputs returns [`input_expression`]: one
    input, or several separated by commas), converts it with tritonize and returns the generated file (asserting
    success)."""
    import subprocess

    model = tmp_path / f"{name}.py"
    model.write_text(
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
        f"class Model(nn.Module):\n    def forward(self, {params}):\n        return {expression}\n\n\n"
        f"def get_inputs():\n    return [{input_expression}]\n\n\n"
        "def get_init_inputs():\n    return []\n"
    )
    out = tmp_path / f"{name}_triton.py"
    r = subprocess.run([str(TRITONIZE), "convert", str(model), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, f"{expression}: {r.stderr}"
    return out


def emitted_kernels(generated: Path) -> str:
    """--emit=kernels of the problem a convert_forward file was generated from."""
    import subprocess

    model = generated.with_name(generated.name.replace("_triton.py", ".py"))
    return subprocess.run([str(TRITONIZE), "convert", str(model), "--emit=kernels"], capture_output=True,
                          text=True).stdout


def run_on_corpus_problem(tmp_path, problem: str, sets: list, script: str) -> None:
    """Converts tests/corpus/`problem`.py shrunk by `sets` (NAME=VALUE), then runs `script` on the generated file
    (its path as argv[1]) under Triton's interpreter; asserts it exits 0 and prints "FAILURES 0" last."""
    import subprocess
    import sys

    gen = tmp_path / f"{problem}_triton.py"
    sets = [arg for s in sets for arg in ("--set", s)]
    subprocess.run([str(TRITONIZE), "convert", str(CORPUS / f"{problem}.py"), *sets, "-o", str(gen)], check=True)
    path = tmp_path / "check.py"
    path.write_text(script)
    env = dict(os.environ, TRITON_INTERPRET="1")
    out = subprocess.run([sys.executable, str(path), str(gen)], capture_output=True, text=True, env=env,
                         timeout=300, cwd=HERE)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().endswith("FAILURES 0"), out.stdout


def run_interpreted(runner: str, jobs: list, *args: str, timeout: int = 300) -> list:
    """Runs `runner` (a script taking json.dumps(jobs) and `args` as arguments, printing a JSON list of failure
    texts or nulls on its last line) under Triton's interpreter; returns the failures."""
    import json
    import subprocess
    import sys

    env = dict(os.environ, TRITON_INTERPRET="1")
    r = subprocess.run([sys.executable, "-c", runner, json.dumps(jobs), *args], capture_output=True, text=True,
                       env=env, cwd=HERE, timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    return [f for f in json.loads(r.stdout.strip().splitlines()[-1]) if f]


def forward_runner(compare: str, setup: str = "") -> str:
    """A runner for run_interpreted that calls each job's generated ModelNew and its PyTorch expression on the same
    inputs: job = {"gen": file, "expr": forward's expression, "inputs": an expression giving the inputs (one tensor
    or a tuple), "params": their names in expr}. `compare` (Python at the job loop's level, no indentation) reads
    `job`, `want`, `got` and `tol` (the runner's second argument, when given) and appends a failure text or None to
    `failures`; `setup` runs once before the jobs (e.g. protocol.patch_interpreter())."""
    import textwrap

    head = (
        "import importlib.util, json, sys\n"
        "import torch\n"
        "import torch.nn as nn\n"
        "import torch.nn.functional as F\n"
        + setup
        + "jobs = json.loads(sys.argv[1])\n"
        "tol = float(sys.argv[2]) if len(sys.argv) > 2 else None\n"
        "failures = []\n"
        "for job in jobs:\n"
        "    spec = importlib.util.spec_from_file_location(\"gen\", job[\"gen\"])\n"
        "    gen = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(gen)\n"
        "    torch.manual_seed(0)\n"
        "    args = eval(job[\"inputs\"])\n"
        "    args = args if isinstance(args, tuple) else (args,)\n"
        "    want = eval(job[\"expr\"], globals(), dict(zip(job[\"params\"], args)))\n"
        "    got = gen.ModelNew()(*args)\n"
    )
    return head + textwrap.indent(textwrap.dedent(compare).strip("\n") + "\n", "    ") + "print(json.dumps(failures))\n"


# One tensor within atol = rtol = tol of eager's, of its shape.
FORWARD_RUNNER = forward_runner("""
ok = got.shape == want.shape and torch.allclose(got, want, atol=tol, rtol=tol)
failures.append(None if ok else job["expr"] + ": max diff " + str((got - want).abs().max().item()))
""")


def convert_error(tmp_path, source: str, name: str = "bad") -> str:
    """Writes `source` to tmp_path/NAME.py, converts it, asserts that tritonize refused it (exit status 1, no output
    file) and returns its diagnostics."""
    import subprocess

    model = tmp_path / f"{name}.py"
    model.write_text(source)
    out = tmp_path / f"{name}_out.py"
    r = subprocess.run([str(TRITONIZE), "convert", str(model), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 1 and not out.exists(), f"{model}: exit status {r.returncode}\n{r.stderr}"
    return r.stderr


def check_forwards(jobs: list, tol: float = 1e-4) -> list:
    """The failures of FORWARD_RUNNER over `jobs` (see there)."""
    return run_interpreted(FORWARD_RUNNER, jobs, str(tol))
