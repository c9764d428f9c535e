"""Whole reductions of long multi-dim tensors split where the tensor's own dims split (passes/split_reduce.cpp,
kMinNaturalPart / kMinNaturalParts): sum(x) over [A, B] is sum(sum(x, 1), 0) with no reshape, so the partial sums
share the row kernels around them (a KL divergence's sum joins the kernel of its log_softmax rows; x.sum(dim=-1),
x.abs().mean() and x.min() read x in one pass). Checked for the form (the kernels' spaces) and against PyTorch under
Triton's interpreter; a tensor too flat for the natural split keeps the reshaped one."""

import subprocess

from .paths import TRITONIZE, check_forwards, convert_forward


def emitted_kernels(problem):
    return subprocess.run([str(TRITONIZE), "convert", str(problem), "--emit=kernels"], capture_output=True, text=True,
                          check=True).stdout

# (forward, inputs, params, kernel spaces expected, values checked under the interpreter: the KL divergence's
# log_softmax rows (one kernel for both: fuse.cpp's merge_sibling_rows) take minutes there, and its form is the same
# reduction kernel as the others')
CASES = [
    ("(x * x).sum() / x.numel() + x.amax()", "torch.randn(1024, 1031)", "x",
     ["reduction space [1024, 1031] axes {1}", "reduction space [1024] axes {0}"], True),
    ("x.sum(dim=-1) * x.abs().mean() + torch.min(x)", "torch.randn(1025, 1024)", "x",
     ["reduction space [1025, 1024] axes {1}: sum* abs sum* min*"], True),
    ("F.kl_div(F.log_softmax(s, dim=1), F.log_softmax(t, dim=1), reduction='sum', log_target=True)",
     "torch.randn(1024, 1030), torch.randn(1024, 1030)", "s, t",
     ["reduction space [1024, 1030] axes {1}: max sub exp sum log sub max sub exp sum log sub sub exp mul sum*"], False),
]


def test_natural_split(tmp_path):
    jobs = []
    for i, (expr, inputs, params, spaces, _) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"ns{i}", expr, inputs, params=params)
        kernels = emitted_kernels(tmp_path / f"ns{i}.py")
        for space in spaces:
            assert space in kernels, f"{expr}: expected '{space}' among\n{kernels}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": [p.strip() for p in params.split(",")]})
    failures = check_forwards([j for j, case in zip(jobs, CASES) if case[4]], tol=1e-4)
    assert not failures, "\n".join(failures)


def test_reshaped_split_stays(tmp_path):
    # (forward, inputs, params, the reshaped split's partial kernel): 64 rows of 65536 are too few parts at the dims
    # (64 < 1024); planes of 128 x 129 (16512 > 16384 elements) would not be held in registers. (A transposed input,
    # which would be read across memory at the dims, is summed whole in its transposing tile: test_tile_sums.py.)
    cases = [
        ("x.sum()", "torch.randn(64, 65536)", "x", "reduction space [2048, 2048] axes {1}"),
        ("((a.t() - b) ** 2).sum()", "torch.randn(1031, 1024), torch.randn(1024, 1031)", "a, b",
         "reduction space [1024, 1031] axes {0,1}"),
        ("x.abs().mean()", "torch.randn(1024, 128, 129)", "x", "reduction space [2048, 8256] axes {1}"),
    ]
    for i, (expr, inputs, params, space) in enumerate(cases):
        convert_forward(tmp_path, f"rs{i}", expr, inputs, params=params)
        kernels = emitted_kernels(tmp_path / f"rs{i}.py")
        assert space in kernels, f"{expr}: expected '{space}' among\n{kernels}"
