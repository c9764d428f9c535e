"""Normalisation statistics chunked by the layout in memory (passes/decompose.cpp, moments and lower_layer_norm),
checked for the form (the kernels' spaces, the chunk held in registers) and against PyTorch under Triton's
interpreter:
- a batch norm of an NHWC tensor permuted to NCHW, an instance norm over the length of x.transpose(1, 2): the
  reduced run is logically rows but in memory columns (of C), so it is chunked to what a column tile holds
  ([chunk, 64 columns] in registers: one read of x for the statistics) instead of one looped column read three
  times;
- a layer norm over few long rows (which split_reduce splits) takes the chunked statistics too, so x - mean is
  not materialized between the partial sums and the output, and its chunks (rows of 673) share the kernel of a
  layer norm over the last dim of the same input."""

import re
import subprocess

from .paths import TRITONIZE, check_forwards, convert_forward

# (forward, inputs, kernels expected in --emit=kernels, in order; the generated file's first kernel holds its
# chunk: no loop)
CASES = [
    ("F.batch_norm(x.permute(0, 3, 1, 2), None, None, training=True)", "torch.randn(2, 33, 40, 24) * 2 + 3",
     ["kernel 0 reduction space [24, 2, 3, 11, 40] axes {3,4}",  # chunks of 11 x 40 rows, 24 columns
      "kernel 1 reduction space [24, 2, 3] axes {1,2}",           # the chunks combined
      "kernel 2 pointwise space [2, 24, 33, 40]"]),
    ("F.instance_norm(x.transpose(1, 2), eps=1e-3)", "torch.randn(3, 600, 24) * 2 + 3",
     ["kernel 0 reduction space [3, 24, 2, 300] axes {3}",
      "kernel 1 reduction space [3, 24, 2] axes {2}",
      "kernel 2 pointwise space [3, 24, 600]"]),
    ("F.layer_norm(x, (x.shape[-1],), eps=1e-3) + F.layer_norm(x, x.shape[1:])",
     "torch.randn(2, 2, 97, 673, dtype=torch.float16) * 2 + 1",
     ["kernel 0 reduction space [2, 2, 97, 673] axes {3}",  # both norms' statistics over the rows of 673
      "kernel 1 reduction space [2, 2, 97] axes {1,2}",     # the per-sample norm's, combined
      "kernel 2 pointwise space [2, 2, 97, 673]"]),
]


def emitted_kernels(problem):
    return subprocess.run([str(TRITONIZE), "convert", str(problem), "--emit=kernels"], capture_output=True, text=True,
                          check=True).stdout


def test_norm_statistics_layout(tmp_path):
    jobs = []
    for i, (expr, inputs, kernels) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"nl{i}", expr, inputs)
        emitted = [line for line in emitted_kernels(tmp_path / f"nl{i}.py").splitlines() if line.startswith("kernel")]
        assert len(emitted) == len(kernels), f"{expr}: expected {len(kernels)} kernels, got\n" + "\n".join(emitted)
        for want, got in zip(kernels, emitted):
            assert got.startswith(want), f"{expr}: expected '{want}', got '{got}'"
        first = re.search(r"@triton.jit\ndef (\w+)\(.*?(?=\n\n\ndef )", gen.read_text(), re.S).group(0)
        assert "for " not in first, f"{expr}: the statistics chunk is looped:\n{first}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x"]})
    failures = check_forwards(jobs[:2], tol=1e-4) + check_forwards(jobs[2:], tol=1e-2)
    assert not failures, "\n".join(failures)
