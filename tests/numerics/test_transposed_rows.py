"""Transposed rows (plan_reduction in kernel/lower_reduction.cpp): a row reduction read once, with one operand read
along its rows (seen through .t(), the reduced dim at the large stride) and another read along the row itself, takes
BLOCK_M = 128 bytes of rows per program (32 fp32, 64 16-bit), so that the transposed operand is read in 128-byte
segments, looping over chunks of BLOCK_R = 64 of the row. Checked for the form (and its absence where there are too
few row tiles, the rows are read twice, or no operand is transposed) and against PyTorch under Triton's interpreter
at odd sizes: a partial last row tile, a partial last chunk, row tiles that cross an outer dim, fp16."""

from .paths import check_forwards, convert_forward

# (forward, inputs, params, launch arguments the generated file must hold)
CASES = [
    # cosine similarity (three sums of the row): 257 row tiles, the last one partial, 3 chunks, the last partial
    ("1 - F.cosine_similarity(a, b.t(), dim=1)", "torch.randn(8195, 131), torch.randn(131, 8195)", "a, b",
     "R=131, BLOCK_R=64, M=8195, BLOCK_M=32"),
    # rows over two kept dims (row tiles cross the first), the transposed operand permuted
    ("(a - b.permute(0, 2, 1)).abs().sum(dim=-1)", "torch.randn(4, 2051, 177), torch.randn(4, 177, 2051)", "a, b",
     "R=177, BLOCK_R=64, M=8204, BLOCK_M=32"),
]
# Forms only (the interpreter takes minutes over their 257 row tiles): (forward, inputs, params, launch arguments
# expected, or None where the launch must not be transposed rows)
FORMS = [
    # max and min (each lane's NaN-keeping extreme; tl.reduce with a combine function runs minutes here)
    ("torch.amax(a + b.t(), dim=1) - torch.amin(a - b.t(), dim=1)", "torch.randn(8195, 131), torch.randn(131, 8195)",
     "a, b", "R=131, BLOCK_R=64, M=8195, BLOCK_M=32"),
    # a row of 18 chunks: compensated blocks of 8 chunks (the looped rows' rule; values: test_compensated_sum)
    ("(a * b.t()).sum(dim=1)", "torch.randn(8197, 1100), torch.randn(1100, 8197)", "a, b",
     "R=1100, BLOCK_R=64, M=8197, BLOCK_M=32"),
    # rows read twice (a softmax) keep the held rows
    ("torch.softmax(a + b.t(), dim=1)", "torch.randn(8195, 200), torch.randn(200, 8195)", "a, b", None),
    # too few row tiles (fewer than 256): the usual held rows
    ("1 - F.cosine_similarity(a, b.t(), dim=1)", "torch.randn(4097, 131), torch.randn(131, 4097)", "a, b", None),
    # a per-row scale walks the rows contiguously but is broadcast along the row: the usual held rows
    ("(a * w[:, None]).sum(dim=1)", "torch.randn(8195, 131), torch.randn(8195)", "a, w", None),
    # no transposed operand: the usual held rows
    ("(a * b).sum(dim=1)", "torch.randn(8195, 131), torch.randn(8195, 131)", "a, b", None),
]


def check_form(text, expr, launch):
    if launch is None:
        assert "BLOCK_M=32" not in text and "BLOCK_M=64" not in text, f"{expr}: transposed rows unexpected\n{text}"
        return
    assert launch in text and "in range(0, R, BLOCK_R" in text, f"{expr}: transposed rows ({launch}) expected\n{text}"
    assert "BLOCK_M rows a program: an operand stored along the rows is read in 128-byte segments" in text, text


def test_transposed_rows_forms(tmp_path):
    for i, (expr, inputs, params, launch) in enumerate(FORMS):
        text = convert_forward(tmp_path, f"tf{i}", expr, inputs, params=params).read_text()
        check_form(text, expr, launch)
        if launch and "R=1100" in launch:  # (more than 16 chunks: compensated blocks of 8)
            assert "range(0, R, BLOCK_R * 8)" in text and "comp = comp + " in text, text


def test_transposed_rows(tmp_path):
    jobs = []
    for i, (expr, inputs, params, launch) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"tr{i}", expr, inputs, params=params)
        check_form(gen.read_text(), expr, launch)
        jobs.append({"gen": str(gen), "expr": expr, "inputs": f"({inputs})",
                     "params": [p.strip() for p in params.split(",")]})
    failures = check_forwards(jobs)
    assert not failures, "\n".join(failures)


def test_transposed_rows_fp16(tmp_path):
    # 16-bit: 64 rows make the 128-byte segment
    expr = "1 - F.cosine_similarity(a, b.t(), dim=1)"
    inputs = "torch.randn(16387, 131).half(), torch.randn(131, 16387).half()"
    gen = convert_forward(tmp_path, "tr16", expr, inputs, params="a, b")
    text = gen.read_text()
    check_form(text, expr, "R=131, BLOCK_R=64, M=16387, BLOCK_M=64")
    failures = check_forwards([{"gen": str(gen), "expr": expr, "inputs": f"({inputs})", "params": ["a", "b"]}],
                              tol=1e-2)
    assert not failures, "\n".join(failures)
