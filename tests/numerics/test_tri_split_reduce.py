"""A long-row reduction of tril/triu (passes/split_reduce.cpp): the split views the row as [P, R/P] and sinks that
reshape through the pointwise ops below the reduction, but never through tril/triu, whose values depend on the
row and column of their own shape. Sunk, tril(x).sum() over a [300, 300] matrix kept the elements below the
diagonal of the [P, R/P] split instead (-32.0 against -107.3), and an integer argmax over a tril'd row of 70000
(split into chunks) returned 61251 for 5. Checked against PyTorch under Triton's interpreter; the reductions stay
split (two or more reduction launches)."""

import re

from .paths import check_forwards, convert_forward

CASES = [
    ("torch.tril(x).sum()", "torch.randn(300, 300)"),
    ("torch.tril(x * 2).sum(dim=(1, 2))", "torch.randn(2, 300, 300)"),
    ("torch.triu(x, 1).amax(dim=(1, 2))", "torch.randn(2, 300, 300)"),
    ("torch.tril((x * 3).int(), 5).argmax(2).float()", "torch.randn(2, 3, 70000)"),
]


def test_tri_under_split_reduction(tmp_path):
    jobs = []
    for i, (expr, inputs) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"tri{i}", expr, inputs)
        forward = gen.read_text().split("def forward", 1)[1]
        launches = re.findall(r"= \w*(?:sum|max|min|arg)\w*\(", forward)
        assert len(launches) >= 2, f"{expr}: the long reduction is no longer split:\n{forward}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x"]})
    failures = check_forwards(jobs, tol=1e-4)
    assert not failures, "\n".join(failures)
