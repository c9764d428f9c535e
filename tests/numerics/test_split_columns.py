"""Split columns (kernel/lower_reduction.cpp): a looped reduction over a non-innermost dim whose rows are not
16-byte aligned (Triton loads one element per instruction) and whose column blocks are few is split over PARTS
programs of CHUNK rows per column block; each stores its [1, BLOCK_I] partials and counts in on the block's counter,
and the block's last program combines them in part order. A.t() @ x with A stored [K, M] is the case that led to it
(gemm_matvec_transposed: 469 programs for 32003 rows, 45% of the bandwidth floor on the H200). Under the
interpreter the programs run in order, so the last to count in is the last part. Each model is called twice (the
second call finds the counters the first one left). The shapes give a last part that ends past R, column blocks
partly past I, several outer indices (a counter each), and NaN / -inf in a later part of a max / min.
test_split_columns_rule checks which columns take the form; test_split_column_chunks that a compensated sum's blocks
of chunks stay within a part (conversion only: the interpreter is too slow for columns that long)."""

import re

from .paths import convert_forward, run_interpreted

# (forward expression, inputs (expression), parameter names, tolerance, PARTS the kernel must have, fix-up run on
# the inputs before the call)
CASES = [
    # the matvec of the corpus shrunk: rows 67 apart, 2 column blocks of 5 parts (512 rows each, the last 52)
    ("A.t() @ x", "torch.randn(2100, 67), torch.randn(2100) / 2100 ** 0.5", "A, x", 1e-4, 5, ""),
    # torch.mv of a transposed stored matrix is the same kernel
    ("torch.mv(A.t(), x)", "torch.randn(1300, 131), torch.randn(1300)", "A, x", 1e-4, 3, ""),
    # a plain sum and a mean over dim 1 of [3, R, 33]: three outer indices, one column block each
    ("x.sum(dim=1), x.mean(dim=1)", "torch.randn(3, 1700, 33)", "x", 1e-4, 4, ""),
    # NaN in part 2 of column 5, -inf in part 1 of column 7, +inf in the last part of column 9
    ("torch.amin(x, dim=0), torch.amax(x, dim=0)", "torch.randn(1500, 45)", "x", 0.0, 3,
     "x[1200, 5] = float('nan'); x[700, 7] = float('-inf'); x[1499, 9] = float('inf')"),
    # a product of factors near 1 (the partials multiply)
    ("torch.prod(1.0 + 0.01 * x, dim=0)", "torch.randn(1100, 37)", "x", 1e-4, 3, ""),
    # bf16 input, fp32 accumulation, rounded once
    ("x.sum(dim=0)", "torch.randn(1800, 67).to(torch.bfloat16)", "x", 1e-2, 4, ""),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
results = []
for path, expr, inputs, params, tol, fix in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    torch.manual_seed(0)
    args = eval(inputs)
    args = args if isinstance(args, tuple) else (args,)
    names = [p.strip() for p in params.split(",")]
    exec(fix, dict(zip(names, args)))
    want = eval(expr, {"torch": torch}, dict(zip(names, args)))
    wants = want if isinstance(want, tuple) else (want,)
    model = m.ModelNew()
    failure = None
    for attempt in ("first call", "second call"):  # (the second finds the counters the first one left)
        got = model(*args)
        gots = got if isinstance(got, tuple) else (got,)
        for g, w in zip(gots, wants):
            ok = g.shape == w.shape and g.dtype == w.dtype and torch.allclose(g.float(), w.float(), atol=tol,
                                                                               rtol=tol, equal_nan=True)
            if not ok:
                failure = f"{expr} on {inputs}, {attempt}: max diff {(g.float() - w.float()).abs().max().item()}"
        if failure:
            break
    results.append(failure)
print(json.dumps(results))
"""


def parts_of(text: str) -> list:
    """The PARTS of every launch in a generated file."""
    return [int(p) for p in re.findall(r"\bPARTS=(\d+)", text)]


def test_split_columns(tmp_path):
    jobs = []
    for i, (expr, inputs, params, tol, parts, fix) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", expr, inputs, params)
        text = out.read_text()
        assert parts_of(text) == [parts], f"{expr}: PARTS {parts_of(text)} in the generated file, expected [{parts}]"
        assert "a split column block" in text, f"{expr}: not the split column form"
        jobs.append((str(out), expr, inputs, params, tol, fix))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)


def test_split_columns_rule(tmp_path):
    # (expression, inputs, split?): aligned rows keep one program per column block (measured at 87-100% of the
    # floor on 256 to 512 programs); so do short columns, columns held whole, and many column blocks.
    rule = [
        ("A.t() @ x", "torch.randn(2100, 67), torch.randn(2100)", True),
        ("A.t() @ x", "torch.randn(2100, 64), torch.randn(2100)", False),  # rows 256 bytes apart: vector loads
        ("x.sum(dim=0)", "torch.randn(2048, 130)", True),  # rows aligned, but the column mask cuts at 130
        ("x.sum(dim=0)", "torch.randn(2048, 132)", False),  # ... at 132, a multiple of 4
        ("x.sum(dim=0)", "torch.randn(500, 67)", False),  # one chunk of 512 rows holds the whole column
        ("x.sum(dim=0)", "torch.randn(200, 67)", False),  # held whole in registers
        ("x.sum(dim=1)", "torch.randn(2100, 1000, 3)", False),  # 2100 column blocks
        ("torch.argmax(x, dim=0)", "torch.randn(2100, 67)", False),  # argmax columns have their own tiles
        ("torch.softmax(x, dim=0)", "torch.randn(2100, 67)", False),  # full-size output: not read once
    ]
    for i, (expr, inputs, split) in enumerate(rule):
        params = "A, x" if "A" in expr else "x"
        text = convert_forward(tmp_path, f"rule{i}", expr, inputs, params).read_text()
        assert ("a split column block" in text) == split, f"{expr} on {inputs}: split expected {split}"


def test_split_column_chunks(tmp_path):
    # 1000 column blocks (500 outer indices of 2) make 7 parts of 1024 rows (32 chunks of 32 per program:
    # compensated, in blocks of 8 chunks), so CHUNK must be a multiple of 8 * BLOCK_R for the blocks to end at the
    # part's end.
    text = convert_forward(tmp_path, "chunks", "x.sum(dim=1)", "torch.randn(500, 7000, 67)").read_text()
    chunk = int(re.search(r"\bCHUNK=(\d+)", text).group(1))
    block_r = int(re.search(r"\bBLOCK_R=(\d+)", text).group(1))
    assert parts_of(text) == [7] and "comp" in text, "not a compensated split"
    assert chunk % (8 * block_r) == 0, f"CHUNK {chunk} is not a multiple of 8 * BLOCK_R {block_r}"
