"""Peeled rows (kernel/lower_reduction.cpp): a looped row read once whose loads start misaligned (rows 20011 floats
apart) is read as whole chunks from its first 16-byte boundary, with tl.multiple_of on the start of its loads, then
its head and tail as two masked chunks (unrolled), in 2048-element chunks on 4 warps; only when every load along the
row shares the row's alignment, leaving out a vector broadcast over the rows (unhinted). A mat-vec's dot sum adds
groups of 4 products in fp32 and accumulates them in fp64. Checked for
the form (which loads carry the hint; no peel for aligned rows or for loads of different alignments) and against
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
    # a vector broadcast over the rows is left unhinted (it is read from cache); the rows still peel
    ("torch.mv(A, x)", "torch.randn(7, 20011), torch.randn(20011)", "A, x", ["A"]),
    ("(a * b).sum(dim=-1)", "torch.randn(7, 20011), torch.randn(1, 20011)", "a, b", ["a"]),
    # a compensated sum over more than 16 peeled chunks: the looped form with its compensation, no peel
    ("x.sum(dim=-1)", "torch.randn(3, 40009)", "x", None),
    # a dot sum is never compensated, so the same length peels
    ("torch.mv(A, x)", "torch.rand(3, 40009), torch.rand(40009)", "A, x", ["A"]),  # (positive: PyTorch's CPU mv is
    # 6e-4 off an exact 0.23 for randn rows this long, ours 3e-5)
    # rows whose loads start differently (a's rows 20011 apart, b's 20012): no peel
    ("(a[:, :20011] * b[:, :20011]).sum(dim=-1)", "torch.randn(5, 20011), torch.randn(5, 20012)", "a, b", None),
]


def test_peeled_rows(tmp_path):
    jobs = []
    for i, (expr, inputs, params, hinted) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"pr{i}", expr, inputs, params=params)
        text = gen.read_text()
        got = re.findall(r"tl\.load\((\w+)_ptr \+ \(tl\.multiple_of", text)
        assert ("tl.multiple_of(" in text) == (hinted is not None), f"{expr}: peeled {hinted is not None} expected\n{text}"
        assert got == (hinted or []), f"{expr}: hinted loads {got}, expected {hinted}"
        if hinted:  # 2048-element chunks on 4 warps, the head and tail unrolled (a loop of two kept 116 registers)
            assert "BLOCK_R=2048" in text and "num_warps=4" in text, text
            assert "for e in tl.static_range(2):" in text, text
            # a mat-vec's dot sum: groups of 4 products in fp32, accumulated in fp64
            dot = expr.startswith("torch.mv")
            assert ("tl.reshape(mul, [BLOCK_M, BLOCK_R // 4, 4])" in text) == dot, text
            assert ("dtype=tl.float64" in text) == dot, text
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": [p.strip() for p in params.split(",")]})
    failures = check_forwards(jobs)
    assert not failures, "\n".join(failures)
