"""Online softmax over columns (kernel/lower_reduction.cpp): a softmax / log_softmax over a non-innermost dim too
long for one register tile takes its max and sum of exp in one pass, per lane (e = exp(min(y, m) - max(y, m)), the
sum rescaled when the running max grows), then one pass writes. Checked against PyTorch under Triton's
interpreter on inputs with the rescaling's edge cases: a column of -inf (NaN, as in PyTorch), -inf in part of a
column, a NaN, a large value after small ones, a masked last chunk. On the GPU: docs/RESULTS.md
(log_softmax_dim1_bf16, act_log_softmax_module)."""

from .paths import convert_forward, run_interpreted

FIX = ("x[0, :, 0] = float('-inf'); x[1, :200, 3] = float('-inf'); x[1, 7, 5] = float('nan');"
       " x[0, 290, 9] = 50.0; x[1, 100:, 11] = -1e30")

# (forward expression, input shape, dtype, tolerance): fp32 columns of 257 to 8192 rows are cooperative
# (test_coop_columns.py), so the fp32 cases here are longer
CASES = [
    ("torch.softmax(x, dim=1)", (2, 8200, 16), "torch.float32", 1e-5),
    ("torch.log_softmax(x * 2.0, dim=1)", (3, 8300, 16), "torch.float32", 1e-5),
    ("torch.nn.functional.log_softmax(x, dim=-2)", (2, 333, 40), "torch.bfloat16", 1e-2),
]

RUNNER = r"""
import importlib.util, json, sys
import torch

results = []
for path, call, shape, dtype, tol, fix in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    torch.manual_seed(0)
    x = torch.randn(*shape).to(getattr(torch, dtype.split(".")[1]))
    exec(fix, {"x": x})
    ref = eval(call, {"torch": torch, "x": x})
    got = m.ModelNew()(x)
    ok = got.shape == ref.shape and torch.allclose(got.float(), ref.float(), atol=tol, rtol=tol, equal_nan=True)
    diff = (got.float() - ref.float()).abs().nan_to_num(0.0).max().item()
    results.append(None if ok else f"{call} on {list(shape)} {dtype}: max diff {diff:.3g}")
print(json.dumps(results))
"""


def test_online_columns(tmp_path):
    jobs = []
    for i, (call, shape, dtype, tol) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}.to({dtype})")
        text = out.read_text()
        assert "online softmax" in text and "BLOCK_R=32" in text, f"{call} on {shape}: not the online form\n{text}"
        jobs.append((str(out), call, shape, dtype, tol, FIX))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
