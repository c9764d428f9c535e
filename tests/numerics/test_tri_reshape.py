"""tril/triu of a reshaped computed value are computed in their own shape (passes/sink_reshape.cpp): sunk through
the reshape, as other pointwise ops are, they kept the elements of the producer's rows and columns instead (up to
5.3 off against PyTorch). Checked against PyTorch under Triton's interpreter."""

from .paths import check_forwards, convert_forward

CASES = [
    ("torch.tril((x * 2).reshape(3, 715)) + 1.0", "torch.randn(3, 5, 143)"),
    ("torch.triu((x - 1).reshape(15, 143), diagonal=2)", "torch.randn(3, 5, 143)"),
]


def test_tri_of_reshape(tmp_path):
    jobs = []
    for i, (expr, inputs) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"tri{i}", expr, inputs)
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x"]})
    failures = check_forwards(jobs, tol=1e-4)
    assert not failures, "\n".join(failures)
