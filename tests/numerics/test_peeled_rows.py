"""Peeled rows (kernel/lower_reduction.cpp): a looped row read once whose full-size loads start misaligned (rows
20011 floats apart) is read as whole chunks from its first 16-byte boundary, with tl.multiple_of on the start of
the loads that share the row's alignment, then its head and tail as two masked chunks. Checked for the form (the
hint on the matrix and never on a vector broadcast over the rows, whose alignment differs; no peel for aligned
rows) and against PyTorch under Triton's interpreter (which ignores the hint, so the form check is what guards
it), with rows whose head is 0 to 3 elements: a sum that missed or repeated an element of a head or tail would be
off by far more than the tolerance."""

import re

from .paths import check_forwards, convert_forward

# (forward, inputs, params, peeled)
CASES = [
    ("torch.mv(A, x)", "torch.randn(7, 20011), torch.randn(20011)", "A, x", True),
    ("torch.amax(4.0 - x, dim=1) - torch.amin(x, dim=1)", "torch.randn(6, 20011)", "x", True),
    ("(x * 2.0).sum(dim=-1)", "torch.randn(2, 3, 20013)", "x", True),
    ("x.sum(dim=-1)", "torch.randn(4, 20480)", "x", False),  # rows 16-byte aligned: no peel
]


def test_peeled_rows(tmp_path):
    jobs = []
    for i, (expr, inputs, params, peeled) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"pr{i}", expr, inputs, params=params)
        text = gen.read_text()
        assert ("tl.multiple_of(" in text) == peeled, f"{expr}: peeled {peeled} expected\n{text}"
        hinted = re.findall(r"tl\.load\((\w+)_ptr \+ \(tl\.multiple_of", text)
        assert all(name in ("A", "x") for name in hinted), hinted
        if params == "A, x":
            assert hinted == ["A"], f"{expr}: only the matrix's loads share the row's alignment: {hinted}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": [p.strip() for p in params.split(",")]})
    failures = check_forwards(jobs)
    assert not failures, "\n".join(failures)
