"""Argmax/argmin with their values, and reductions computed twice, against PyTorch (lower_reduction.cpp).

- A max (min) beside the argmax (argmin) of the same values (`torch.max(x, d)`'s values and indices) has no
  accumulator or reduction of its own: it is the argmax's NaN-keeping extreme (looped columns, looped rows, held
  rows). The looped compare is `~(v <= a) & (a == a)`: NaN first seen late, NaN in the first element, ties
  across chunks and lanes, +-inf, masked tails.
- A split row of more than 1024 parts is combined by its last program in blocks of 1024 (FINISH_BLOCK): the
  kernel generated for a whole tensor of 1025 parts of 32768 is run on 1030 parts of 2048 (its sizes are
  constexprs; the interpreter took 386 s for the real sizes).
- Two reductions of one value over the same axes, keepdim apart (`x.sum(0, keepdim=True)` beside `x.mean(0)`),
  are one accumulator (looped columns) or one reduction (held rows).
Converted by tritonize and run by Triton's interpreter in one subprocess; each model is called twice (split rows'
counters)."""


from .paths import convert_forward, run_interpreted

# (forward expression, input shape, dtype, input fix-up run on x (a randn tensor) before the call,
#  texts the generated file must contain, texts it must not)
CASES = [
    # looped columns (dim 0 of 300 rows), both pairs in one kernel; 16-bit
    ("torch.min(x, 0) + tuple(torch.max(x, dim=0, keepdim=True))", (300, 5, 37), "float16",
     "x[7, 1, 3] = x[250, 1, 3] = 9; x[100, 2, 2] = x[299, 2, 2] = -9; x[0, 0, 0] = float('nan');"
     "x[280, 3, 5] = float('nan'); x[281, 3, 5] = float('nan'); x[10, 4, 6] = float('inf');"
     "x[200, 4, 6] = float('nan'); x[5, 4, 7] = float('-inf')",
     ["better = ~("], ["tl.minimum(acc", "tl.maximum(acc", "any_nan"]),
    # looped rows (argmax tiles of several rows): values and indices over the last dim of 20001
    ("torch.max(x, dim=1)", (5, 20001), "float32",
     "x[0, 100] = x[0, 2148] = x[0, 19000] = 20; x[2, 20000] = float('nan'); x[3, 0] = float('nan');"
     "x[4] = float('-inf')",
     ["better = ~("], ["tl.maximum(acc", "any_nan"]),
    # held rows: values and indices over the last dim (the min stored is the argmin's extreme)
    ("torch.min(x, dim=2) + tuple(x.max(1))", (4, 33, 97), "float32",
     "x[0, 3, 5] = float('nan'); x[1, 7, 0] = x[1, 7, 96] = -8; x[2, 0, 1] = float('nan'); x[2, 0, 2] = float('nan');"
     "x[3, 2, :] = 1.5",
     [], ["any_nan", "tl.minimum(acc"]),
    # the same sum twice (keepdim apart; the mean's reads x widened to float32), looped columns, bf16
    ("torch.sum(x, 0, keepdim=True), x.mean(dim=0)", (3000, 128), "bfloat16", "",
     ["tl.sum(tl.where(acc - acc"], ["acc1"]),
    # held rows, fp32 and keepdim apart
    ("x.sum(1), torch.sum(x, dim=1, keepdim=True), x.mean(1)", (6, 300), "float32", "", [], ["red_sum1"]),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
results = []
for path, call, shape, dtype, fix in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    torch.manual_seed(0)
    x = torch.randn(*shape).to(getattr(torch, dtype))
    exec(fix, {"x": x})
    ref = eval(call, {"torch": torch, "x": x})
    refs = tuple(ref) if isinstance(ref, tuple) else (ref,)
    model = m.ModelNew()
    problem = None
    for attempt in ("first call", "second call"):  # (the second finds the counters the first one left)
        got = model(x)
        gots = tuple(got) if isinstance(got, (tuple, list)) else (got,)
        if len(gots) != len(refs):
            problem = f"{len(gots)} outputs, expected {len(refs)}"
        for i, (g, r) in enumerate(zip(gots, refs)):
            if problem:
                break
            if g.shape != r.shape or g.dtype != r.dtype:
                problem = f"output {i}: {g.dtype}{list(g.shape)}, expected {r.dtype}{list(r.shape)}"
            elif r.dtype == torch.int64 or r.dtype == x.dtype and "sum" not in call and "mean" not in call:
                if not torch.equal(g, r) and not (g.is_floating_point() and torch.equal(g.nan_to_num(7.0), r.nan_to_num(7.0))):
                    problem = f"output {i} differs: {g.flatten()[:8]} against {r.flatten()[:8]}"
            else:
                tol = 1e-4 if dtype == "float32" else 1e-2
                if not torch.allclose(g.float(), r.float(), atol=tol, rtol=tol):
                    problem = f"output {i}: max diff {(g.float() - r.float()).abs().max().item()}"
        if problem:
            break
    results.append(None if problem is None else f"{call} on {list(shape)} {dtype} ({fix}), {attempt}: {problem}")
print(json.dumps(results))
"""


def test_argm_values_and_twins(tmp_path):
    jobs = []
    for i, (call, shape, dtype, fix, present, absent) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}.to(torch.{dtype})")
        text = out.read_text()
        for marker in present:
            assert marker in text, f"{call} on {shape}: {marker!r} not in the generated file"
        for marker in absent:
            assert marker not in text, f"{call} on {shape}: {marker!r} in the generated file"
        jobs.append((str(out), call, shape, dtype, fix))
    failures = run_interpreted(RUNNER, jobs, timeout=900)
    assert not failures, "\n".join(failures)


FINISH_RUNNER = r"""
import importlib.util, json, sys
import torch
path, = json.loads(sys.argv[1])
spec = importlib.util.spec_from_file_location("generated", path)
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
results = []
# The kernel generated for 1025 parts, launched on 40 parts with blocks of 16 partials (FINISH_BLOCK is a
# constexpr): the same blocked finish over three blocks, the last partly masked, in a fraction of the interpreter's
# time (1030 programs took 500 s).
chunk, parts = 2048, 40
n = chunk * (parts - 1) + 700
# ties across parts and blocks of partials; the first NaN in the last, partly masked block, after a later one
for fix in ("x[3 * 2048 + 7] = x[27 * 2048] = 30; x[2 * 2048 + 1] = x[39 * 2048 + 9] = -30",
            "x[39 * 2048 + 10] = float('nan'); x[35 * 2048] = float('nan'); x[5] = float('-inf')"):
    torch.manual_seed(0)
    x = torch.randn(n)
    exec(fix, {"x": x, "torch": torch})
    work = torch.empty(2 * parts * 2)
    index = work[parts * 2:].view(torch.int32)
    count = torch.zeros(1, dtype=torch.int32)
    top, low = torch.empty((), dtype=torch.int64), torch.empty((), dtype=torch.int64)
    m.fused_argmax_argmin_kernel[(parts,)](
        x, top, low, work, index, count, PARTS=parts, PARTS_P2=64, CHUNK=chunk, R=n, BLOCK_R=2048, M=1,
        BLOCK_M=1, FINISH_BLOCK=16, num_warps=4)
    ok = top.item() == torch.argmax(x).item() and low.item() == torch.argmin(x).item() and count.item() == 0
    results.append(None if ok else f"{fix}: got {top.item()}, {low.item()}, expected {torch.argmax(x).item()}, "
                                   f"{torch.argmin(x).item()} (counter {count.item()})")
print(json.dumps(results))
"""


def test_split_finish_blocks(tmp_path):
    out = convert_forward(tmp_path, "whole", "torch.argmax(x), x.argmin()", "torch.randn(1025 * 32768 - 5)")
    text = out.read_text()
    for marker in ("PARTS=1025", "FINISH_BLOCK=1024", "for q0 in range(0, PARTS, FINISH_BLOCK):"):
        assert marker in text, f"{marker!r} not in the generated file"
    failures = run_interpreted(FINISH_RUNNER, [str(out)], timeout=900)
    assert not failures, "\n".join(failures)
