"""A bool or integer sum/prod/max/min over dims of size 1 only is its operand, cast to the reduction's type
(passes/decompose.cpp reduce_adjacent; floating ones already were). Reduced in a kernel whose values were all 0-d
(a [1, 1] tril, compared), tl.min/tl.sum had no axis 1 to reduce ("axis 1 out of bounds for shape []", random
seed 848). Checked against PyTorch under Triton's interpreter, exactly; no reduction is left in the kernel."""

from .paths import check_forwards, convert_forward

CASES = [
    ("(torch.tril(x) > -0.1).all(dim=1).float()", "torch.randn(1, 1)"),
    ("(torch.tril(x) > -0.1).sum(dim=1).float() + (torch.tril(x) > 0).any(0).float()", "torch.randn(1, 1)"),
    ("(torch.tril(x) * 3).int().amax(dim=0).float() - (torch.triu(x) * 3).int().prod(dim=0, keepdim=True).float()",
     "torch.randn(1, 1)"),
]


def test_int_unit_reductions(tmp_path):
    jobs = []
    for i, (expr, inputs) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"unit{i}", expr, inputs)
        text = gen.read_text()
        assert not any(f"tl.{r}(" in text for r in ("sum", "min", "max", "reduce")), f"{expr}: a reduction left:\n{text}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x"]})
    failures = check_forwards(jobs, tol=0)
    assert not failures, "\n".join(failures)
