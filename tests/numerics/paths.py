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
