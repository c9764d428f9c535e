"""Transposed columns (kernel/lower_transposed_columns.cpp): a column reduction whose loads walk one kept dim
contiguously while its output is stored contiguously along another (y.mean(dim=0) of y = x.transpose(1, 2)) takes a
[BLOCK_T, BLOCK_I] block of those two dims per program, added up over the reduced rows one row at a time (the row
loop unrolled, its last R % U rows after it), and stored through the output's contiguous dim. Checked for the form
(and its absence where the output is not transposed, or the columns are longer than 256 rows) and against PyTorch
under Triton's interpreter, with sizes that leave partial blocks along both dims and a tail after the unrolled
loop."""

from .paths import check_forwards, convert_forward

# (forward, inputs, params, transposed form expected)
CASES = [
    ("x.transpose(1, 2).mean(dim=0)", "torch.randn(5, 37, 41)", "x", True),
    ("x.transpose(1, 2).sum(dim=0)", "torch.randn(3, 20, 70)", "x", True),
    # NaN kept by max and min, as in PyTorch (NaN turned into 7: allclose fails on NaN)
    ("torch.where(torch.amax(x.permute(0, 2, 1), dim=0) != torch.amax(x.permute(0, 2, 1), dim=0), 7.0, "
     "torch.amax(x.permute(0, 2, 1), dim=0) - torch.amin(x.permute(0, 2, 1), dim=0))",
     "torch.where(torch.rand(7, 19, 33) < 0.01, float('nan'), torch.randn(7, 19, 33))", "x", True),
    ("(x * 0.5 + 0.75).transpose(1, 2).prod(dim=0)", "torch.rand(6, 17, 24)", "x", True),
    # an outer kept dim (scalar per program) and two reduced dims merged into one run of 12
    ("x.permute(0, 1, 3, 2).sum(dim=1)", "torch.randn(4, 6, 33, 40)", "x", True),
    ("x.permute(0, 1, 3, 2).sum(dim=(0, 1))", "torch.randn(3, 4, 33, 40)", "x", True),
    ("x.sum(dim=0)", "torch.randn(5, 37, 41)", "x", False),  # stored along the loads: the column form
    ("x.transpose(1, 2).sum(dim=0)", "torch.randn(300, 17, 19)", "x", False),  # 300 rows: the column form
]


def test_transposed_columns(tmp_path):
    jobs = []
    for i, (expr, inputs, params, transposed) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"tc{i}", expr, inputs, params=params)
        text = gen.read_text()
        form = "tl.full([BLOCK_T, BLOCK_I]" in text and "for row in range(" in text
        assert form == transposed, f"{expr}: transposed columns {transposed} expected\n{text}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": [p.strip() for p in params.split(",")]})
    failures = check_forwards(jobs)
    assert not failures, "\n".join(failures)


def test_transposed_columns_fp16(tmp_path):
    expr, inputs = "x.transpose(1, 2).mean(dim=0)", "torch.randn(7, 45, 130).half()"
    gen = convert_forward(tmp_path, "tc16", expr, inputs)
    text = gen.read_text()
    # [32, 64] blocks; 16-bit loads: the row loop unrolled twice, then R % 2 = 1 row
    assert "BLOCK_T=32, BLOCK_I=64" in text and "tl.static_range(2)" in text and "tl.static_range(6, R" in text, text
    failures = check_forwards([{"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x"]}], tol=1e-2)
    assert not failures, "\n".join(failures)
