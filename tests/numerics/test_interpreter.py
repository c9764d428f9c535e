"""What Triton's interpreter can run, as the numerics tests rely on it (docs/INTERPRETER.md).

Runs interpreter_probe.py twice in fresh processes: as installed, and with protocol.patch_interpreter() (what
the numerics runner uses). Every case must give what is written here. A change means the environment changed
(numpy, triton or torch): a loop case failing means numpy is newer than the pin in scripts/requirements.txt; a
case listed as failing that now passes means a patch or a rule in docs/INTERPRETER.md may be obsolete.
"""

import json
import os
import subprocess
import sys

import pytest

from .paths import HERE

# Failing with the patches too: Triton's own limits, on the GPU as well (math on fp16/bf16 values wants fp32),
# or the interpreter's (no libdevice: it has no extern_elementwise).
FAIL_PATCHED = {
    "libdevice.tanh (triton.language.extra.libdevice)",
    "tl.exp directly on fp16 values (no upcast)",
    "tl.exp directly on bf16 values (no upcast)",
    "torch.cuda.device(cpu tensor's device) in a launcher",
    "tl.arange(0, 48): not a power of 2",
}
# Failing in the interpreter as installed, and fixed by patch_interpreter(): bf16 handled as raw bits.
FAIL_UNPATCHED_ONLY = {
    "tl.dot on bf16 operands, fp32 result",
    "bfloat16 x + y without upcast",
    "bfloat16 x * y without upcast",
    "bfloat16 tl.where(x > y, x, y) without upcast",
    "bfloat16 -x + tl.abs(y) without upcast",
    "bfloat16 x * 2.5 - 1.0 without upcast",
    "bfloat16 tl.sum without upcast",
    "bfloat16 tl.argmin without upcast",
    "fp32 -> bf16 cast rounds as PyTorch does",
    "int32 <-> bf16 <-> fp16 casts",
    "@triton.autotune with two configs",  # benchmarking needs a GPU driver; patched: the first config runs
}


def probe(*args):
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    proc = subprocess.run([sys.executable, str(HERE / "interpreter_probe.py"), *args],
                          capture_output=True, text=True, timeout=300, env=env)
    for line in proc.stdout.splitlines():
        if line.startswith("PROBE-RESULT "):
            return json.loads(line[len("PROBE-RESULT "):]), proc.stdout
    raise AssertionError(f"probe exited {proc.returncode} without a result:\n{proc.stdout}\n{proc.stderr}")


@pytest.fixture(scope="module")
def unpatched():
    return probe()


@pytest.fixture(scope="module")
def patched():
    return probe("--patched")


def mismatches(results, expected_failures):
    out = []
    for name, result in results.items():
        if name in expected_failures and result.startswith("ok"):
            out.append(f"expected to fail, but passes now: {name}")
        elif name not in expected_failures and not result.startswith("ok"):
            out.append(f"{name}: {result}")
    return out


def test_patched_interpreter(patched):
    results, output = patched
    assert not (FAIL_PATCHED | FAIL_UNPATCHED_ONLY) - set(results), "a case was renamed: update this file"
    bad = mismatches(results, FAIL_PATCHED)
    assert not bad, "\n".join(bad) + "\n\n" + output


def test_unpatched_interpreter(unpatched):
    results, output = unpatched
    bad = mismatches(results, FAIL_PATCHED | FAIL_UNPATCHED_ONLY)
    assert not bad, "\n".join(bad) + "\n\n" + output
