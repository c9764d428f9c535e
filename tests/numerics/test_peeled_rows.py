"""Peeled rows (kernel/lower_reduction.cpp): a looped row read once whose loads start misaligned (rows 20011 floats
apart) is read as whole chunks from its first 16-byte boundary, with tl.multiple_of on the start of its loads, then
its head and tail as two masked chunks; only when every load along the row shares the row's alignment. Checked for
the form (which loads carry the hint; no peel for aligned rows or for a vector broadcast over the rows) and against
PyTorch under Triton's interpreter (which ignores the hint, so the form check is what guards it), with rows whose
head is 0 to 3 elements: a sum that missed or repeated an element of a head or tail would be off by far more than
the tolerance."""

import re

from .paths import check_forwards, convert_forward

# (forward, inputs, params, the loads hinted: None for no peel)
CASES = [
    ("(a * b).sum(dim=-1)", "torch.randn(7, 20011), torch.randn(7, 20011)", "a, b", ["a", "b"]),
    ("torch.amax(4.0 - x, dim=1) - torch.amin(x, dim=1)", "torch.randn(6, 20011)", "x", ["x"]),
    ("(x * 2.0).sum(dim=-1)", "torch.randn(2, 3, 20013)", "x", ["x"]),
    ("x.sum(dim=-1)", "torch.randn(4, 20480)", "x", None),  # rows 16-byte aligned: nothing to peel
    # the vector, aligned with the rows' starts, would lose its vectors (measured slower): no peel
    ("torch.mv(A, x)", "torch.randn(7, 20011), torch.randn(20011)", "A, x", None),
    ("(a * b).sum(dim=-1)", "torch.randn(7, 20011), torch.randn(1, 20011)", "a, b", None),  # b broadcast likewise
]


def test_peeled_rows(tmp_path):
    jobs = []
    for i, (expr, inputs, params, hinted) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"pr{i}", expr, inputs, params=params)
        text = gen.read_text()
        got = re.findall(r"tl\.load\((\w+)_ptr \+ \(tl\.multiple_of", text)
        assert ("tl.multiple_of(" in text) == (hinted is not None), f"{expr}: peeled {hinted is not None} expected\n{text}"
        assert got == (hinted or []), f"{expr}: hinted loads {got}, expected {hinted}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": [p.strip() for p in params.split(",")]})
    failures = check_forwards(jobs)
    assert not failures, "\n".join(failures)
