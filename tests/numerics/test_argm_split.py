"""Split argmax/argmin (passes/split_reduce.cpp) against PyTorch, on inputs built to catch a wrong combine of the
chunks: ties in two chunks and between a chunk and the tail, all-equal rows, a NaN first seen in a later chunk or
only in the tail, +inf before a NaN, argmin and argmax, keepdim, fp16, a fused producer. Rows of 70001 and a
whole tensor of 98031 elements give 17 and 23 chunks of 4096 plus a tail (the corpus' shrunk sizes stay under
the 65536 elements that trigger the split). Converted by tritonize and run by Triton's interpreter in one
subprocess."""


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
    got = m.ModelNew()(x)
    refs, gots = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
    ok = len(refs) == len(gots) and all(g.shape == r.shape and g.dtype == r.dtype and torch.equal(g, r)
                                        for g, r in zip(gots, refs))
    results.append(None if ok else f"{call} on {list(shape)} {dtype} ({fix}): got {gots}, expected {refs}")
print(json.dumps(results))
"""


def test_split_argm(tmp_path):
    jobs = []
    for i, (call, shape, dtype, fix) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}.to(torch.{dtype})")
        # the split must have happened: a kernel over [..., chunks, 4096]
        assert "R=4096" in out.read_text(), f"{call} on {shape}: not split"
        jobs.append((str(out), call, shape, dtype, fix))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
