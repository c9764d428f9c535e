"""Whole-space sums counted in the pointwise kernel's own tile (kernel/lower_pointwise.cpp, lower_pointwise_total;
split_reduce leaves such a sum whole): a floating sum over all of a computed value with a transposed operand, or
whose value is also needed elsewhere (a 'none' loss returned beside its sum or mean), is one kernel. Each program
stores its tile's full-size outputs and its partial sums, counts in on a counter, and the last program sums the
partials and stores the reduced values, then zeroes the counter. Checked for the form (one kernel, no contiguous copy
of the transposed operand, the partials and the counter) and against PyTorch under Triton's interpreter, called
twice on fresh inputs (the second call finds the counter zeroed)."""

import json

from .paths import convert_forward, run_interpreted

RUNNER = r"""
import importlib.util, json, sys
import torch
import torch.nn.functional as F
jobs = json.loads(sys.argv[1])
failures = []
for job in jobs:
    spec = importlib.util.spec_from_file_location("gen", job["gen"])
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    model = gen.ModelNew()
    bad = None
    for seed in (0, 1):
        torch.manual_seed(seed)
        args = eval(job["inputs"])
        args = args if isinstance(args, tuple) else (args,)
        want = eval(job["expr"], globals(), dict(zip(job["params"], args)))
        got = model(*args)
        want = want if isinstance(want, tuple) else (want,)
        got = got if isinstance(got, tuple) else (got,)
        for w, g in zip(want, got):
            ok = g.shape == w.shape and g.dtype == w.dtype and torch.allclose(g.float(), w.float(), atol=job["tol"],
                                                                              rtol=job["tol"])
            if not ok and bad is None:
                bad = f"{job['expr']} (call {seed + 1}): max diff {(g.float() - w.float()).abs().max().item()}"
        if len(want) != len(got):
            bad = f"{job['expr']}: {len(got)} results, expected {len(want)}"
    failures.append(bad)
print(json.dumps(failures))
"""

# (forward, inputs, params, tolerance, the tile: "BLOCK_T" for the transposing 2-D tile, "BLOCK" for the flat one,
# sums per program)
CASES = [
    # a 'none' loss over a transposed operand and its sum (loss_mse_none_sum_transposed's form), 78900 elements
    ("(a - b.t()) ** 2, ((a - b.t()) ** 2).sum()", "torch.randn(263, 300), torch.randn(300, 263)", "a, b", 1e-4,
     "BLOCK_T", 1),
    # the sum alone of a transposed difference (loss_mse_written_transposed): no contiguous copy of b first
    ("F.mse_loss(a, b.transpose(1, 2))", "torch.randn(3, 131, 200), torch.randn(3, 200, 131)", "a, b", 1e-4,
     "BLOCK_T", 1),
    # bf16, the sum rounded once at the end as eager's (an L1 'none' loss: eager on the CPU squares an unrounded
    # bf16 difference in mse_loss, on the GPU a rounded one, as the kernel does)
    ("(a - b.t()).abs(), (a - b.t()).abs().sum()",
     "torch.randn(257, 301).bfloat16(), torch.randn(301, 257).bfloat16()", "a, b", 1e-2, "BLOCK_T", 1),
    # a contiguous 'none' hinge loss beside its mean: the flat tile, its last tile masked (90300 elements)
    ("torch.clamp(1 - x * y, min=0), torch.clamp(1 - x * y, min=0).mean()",
     "torch.randn(300, 301), torch.randn(300, 301)", "x, y", 1e-4, "BLOCK", 1),
    # smooth L1 'none' with its sum and mean over a transposed target: two sums of one tile
    ("F.smooth_l1_loss(a, b.t(), reduction='none'), F.smooth_l1_loss(a, b.t(), reduction='sum'), "
     "F.smooth_l1_loss(a, b.t(), reduction='mean', beta=0.5)",
     "torch.randn(263, 300), torch.randn(300, 263)", "a, b", 1e-4, "BLOCK_T", 2),
]


def test_tile_sums(tmp_path):
    jobs = []
    for i, (expr, inputs, params, tol, tile, slots) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"ts{i}", expr, inputs, params=params)
        text = gen.read_text()
        kernels = text.count("@triton.jit\ndef ")
        assert kernels == 1, f"{expr}: expected one kernel, got {kernels}:\n{text}"
        for form in (f"{tile}: tl.constexpr", "seen = tl.atomic_add(count_ptr, 1, sem=\"acq_rel\")",
                     "if seen == PARTS - 1:", "tl.store(count_ptr, 0)", "tl.load(work_ptr + "):
            assert form in text, f"{expr}: expected '{form}' in\n{text}"
        assert "pointwise_copy" not in text, f"{expr}: a contiguous copy of the transposed operand\n{text}"
        stores = text.count("tl.store(work_ptr + ")
        assert stores == slots, f"{expr}: expected {slots} partial sums a program, got {stores}\n{text}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "tol": tol,
                     "params": [p.strip() for p in params.split(",")]})
    failures = [f for f in run_interpreted(RUNNER, jobs) if f]
    assert not failures, "\n".join(failures)
