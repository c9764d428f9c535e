"""Which way a reduction kernel lays out its tile follows the memory order (kernel/lower_reduction.cpp): a reduced
dim that the input walks contiguously runs across the lanes even when kept dims follow it in the view (a mean
over dim 1 of x.transpose(1, 2), a sum over the channels of a channels-last tensor permuted to NCHW), unless a
full-size output is stored contiguously along a kept dim (a softmax of either: the [BLOCK_R, BLOCK_I] tile keeps
loads and stores coalesced); a kept dim that the input walks contiguously does when the reduced dims are strided
(a reduction over the last dim of a transposed tensor). Checked on the generated launch (rows: M=, columns: I=)
and against PyTorch under Triton's interpreter."""

import re

from .paths import check_forwards, convert_forward

CASES = [
    # (forward, input, the kernel's form)
    ("x.transpose(1, 2).mean(dim=1)", "torch.randn(3, 67, 73)", "rows"),
    ("x.permute(0, 3, 1, 2).sum(dim=1)", "torch.randn(2, 5, 7, 37)", "rows"),
    ("x.t().sum(dim=1)", "torch.randn(131, 67)", "columns"),
    # a full-size output stored contiguously along the kept dim: the transposing tile keeps both sides coalesced
    ("torch.log_softmax(x.t(), dim=1)", "torch.randn(67, 131)", "columns"),
    ("torch.softmax(x.permute(0, 3, 1, 2), dim=1)", "torch.randn(2, 5, 7, 37)", "columns"),
    # A.t() @ v: the vector walks the reduced dim contiguously, but only A's loads count (full-size)
    ("x.t() @ v", "torch.randn(67, 131), torch.randn(67)", "columns"),
    # two kept inner dims, the contiguous one first in the view: it goes across the lanes (stored with a stride)
    ("x.transpose(1, 2).mean(dim=0)", "torch.randn(5, 67, 73)", "columns"),
]


def test_reduction_layout(tmp_path):
    jobs = []
    for i, (expr, inp, form) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"rl{i}", expr, inp, params="x, v" if "v" in expr else "x")
        launch = re.search(r"dict\([^)]*R=\d+[^)]*\)", gen.read_text(), re.S).group(0)
        got = "rows" if re.search(r"\bM=", launch) else "columns"
        assert got == form, f"{expr}: a {got} kernel ({launch})"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inp, "params": ["x", "v"]})
    failures = check_forwards(jobs, 1e-5)
    assert not failures, "\n".join(failures)
