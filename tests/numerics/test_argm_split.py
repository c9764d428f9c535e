"""Split argmax/argmin against PyTorch, on inputs built to catch a wrong combine of the chunks: ties in two
chunks and between a chunk and the last one, all-equal rows, a NaN first seen in a later chunk or only in the last
one, +inf before a NaN, argmin and argmax, keepdim, fp16, a fused producer. Floating rows are split by their kernel
(lower_reduction's split rows: 8 or 16 tiles per program, the row's last program combines); rows of 70001 and a
whole tensor of 98031 fp32 elements give 5 and 6 programs per row (the corpus' shrunk sizes stay under the 65536
elements that trigger the split). A last case checks the tiles of several looped rows. Each model is called twice, so the second call sees the counters the first one
left. Integer rows are split in the graph (passes/split_reduce.cpp: chunks of 4096 plus a tail). Converted by
tritonize and run by Triton's interpreter in one subprocess."""


from .paths import convert_forward, run_interpreted

ROWS = (2, 70001)
# (forward expression, input shape, dtype, input fix-up run on x (a randn tensor) before the call)
CASES = [
    ("torch.argmax(x), x.argmin(keepdim=True)", (3, 41, 797), "float32", ""),
    ("x.argmax(dim=1), x.argmin(dim=1)", ROWS, "float32", "x.zero_()"),
    # maxima (and minima) repeated in chunks 1 and 2 of row 0; in chunk 0 and the tail of row 1
    ("x.argmax(dim=1), torch.argmin(x, dim=-1, keepdim=True)", ROWS, "float32",
     "x[0, 5000] = x[0, 9000] = 10; x[1, 100] = x[1, 69999] = 10;"
     "x[0, 6000] = x[0, 12000] = -10; x[1, 200] = x[1, 69998] = -10"),
    # the maximum only in the tail; the minimum only in the last chunk
    ("x.argmax(dim=1), x.argmin(dim=1)", ROWS, "float32", "x[:, 69700] = 10; x[:, 69000] = -10"),
    # row 0: +inf in chunk 0, NaN first in chunk 7 (then chunk 12); row 1: NaN only in the tail, -inf in chunk 3
    ("x.argmax(dim=1), x.argmin(dim=1, keepdim=True)", ROWS, "float32",
     "x[0, 10] = float('inf'); x[0, 30000] = x[0, 50000] = float('nan'); x[1, 69990] = float('nan');"
     "x[1, 13000] = float('-inf')"),
    ("torch.argmax(x, 1)", ROWS, "float16", "x[0, 33000] = x[0, 40000] = 20; x[1, 66000] = float('nan')"),
    ("torch.argmax(x.clamp(max=1.0), dim=1)", ROWS, "float32", ""),
    ("torch.argmin(x)", (70001,), "bfloat16", "x[50000] = x[60000] = -30"),
    # a split max with no argmax: partials of values only (no index buffer)
    ("torch.amax(x, dim=1)", ROWS, "float32", "x[1, 69990] = 50"),
    # integers (randn truncated: -3..3, ties everywhere)
    ("x.argmax(dim=1), torch.argmin(x, dim=1)", ROWS, "int32", ""),
    # not split (rows of 20001 are looped): tiles of 4 rows, the last one partly outside, ties across chunks and
    # lanes, a NaN
    ("x.argmax(dim=1), x.argmin(dim=1)", (7, 20001), "float16",
     "x[0, 100] = x[0, 2148] = x[0, 19000] = 20; x[5, 7] = x[5, 2055] = -20; x[6, 15000] = float('nan')"),
]
# what the generated file must contain: the path under test
MARKERS = {"int32": "R=4096", "float16 (7, 20001)": "BLOCK_M=4"}

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
    model = m.ModelNew()
    for attempt in ("first call", "second call"):  # (the second finds the counters the first one left)
        got = model(x)
        refs, gots = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
        ok = len(refs) == len(gots) and all(g.shape == r.shape and g.dtype == r.dtype and torch.equal(g, r)
                                            for g, r in zip(gots, refs))
        if not ok:
            break
    results.append(None if ok else f"{call} on {list(shape)} {dtype} ({fix}), {attempt}: got {gots}, expected {refs}")
print(json.dumps(results))
"""


def test_split_argm(tmp_path):
    jobs = []
    for i, (call, shape, dtype, fix) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}.to(torch.{dtype})")
        # the path under test: programs per row in the kernel, (integers) a kernel over [..., chunks, 4096], or
        # (short rows) tiles of several rows
        marker = MARKERS.get(dtype, MARKERS.get(f"{dtype} {shape}", "PARTS="))
        assert marker in out.read_text(), f"{call} on {shape}: {marker} not in the generated file"
        jobs.append((str(out), call, shape, dtype, fix))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
