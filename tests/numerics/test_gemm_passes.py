"""The graph passes that rewrite fp32 matrix products, against PyTorch under Triton's interpreter. The corpus'
shrunk sizes are under both passes' thresholds, so these cases are sized for them; each generated file must show
the rewrite (or its absence) in its kernels.

- split_k (passes/split_k.cpp): a long K with few output tiles becomes S partial products and a sum: A @ B,
  x @ w.t() (a transposed operand), F.linear plus a constant, K already a multiple of 4 S (no padding copies),
  and K and N both misaligned on a product large enough for gemm_align (split_k's copy of B pads N too).
- gemm_align (passes/gemm_align.cpp): K or N rows not 16-byte aligned run on zero-padded copies: row-major
  operands, a transposed A, a transposed B, both transposed (the copy transposes them), and N alone misaligned
  with a transposed A (A is not copied, and the pass leaves a product whose uncopied operand is not row-major).

- B's layout (fp32 products, tf32x3 tl.dot: TF32 wgmma takes 32-bit operands only K-major): every copy of B is
  K-major (stored [N, K]); a transposed B (x @ w.t()) is never transposed by its copy, and not copied when
  nothing pads it; an aligned row-major B gets a K-major copy when M >= kKMajorCopyMinM (256) and N, K >= 256;
  16-bit products and small fp32 ones keep B as it is. The matmul kernel then walks B's K with stride 1.
- split count: S fills about 264 programs (2 per multiprocessor of an H200) with the matmul kernel's own tiles
  (128 x 128 for the partial products, B K-major), any integer, chunks of at least 4096.

Each operand is padded by one copy at most: no copy kernel reads another copy's output (B with K and N both
misaligned was copied twice, 2 GB of extra traffic on gemm_large_k)."""

import re

import pytest

from .paths import convert_forward, emitted_kernels, run_interpreted

SPLIT_K = [
    # (forward, input shapes)
    ("torch.mm(a, b)", [(17, 16411), (16411, 19)]),
    ("a @ b.t()", [(21, 20483), (13, 20483)]),
    ("F.linear(a, b) + 1.5", [(9, 16384), (13, 16384)]),
    ("torch.mm(a, b)", [(257, 8195), (8195, 259)]),
]
GEMM_ALIGN = [
    # (forward, input shapes, padded)
    ("torch.mm(a, b)", [(257, 261), (261, 259)], True),
    ("torch.mm(a.t(), b)", [(261, 257), (261, 259)], True),
    ("a @ b.t()", [(257, 261), (259, 261)], True),
    ("torch.mm(a.t(), b.t())", [(261, 257), (259, 261)], True),
    ("torch.mm(a.t(), b)", [(264, 257), (264, 259)], False),
]

B_LAYOUT = [
    # (forward, input shapes, dtype, B K-major in the matmul kernel, B's copy: none, pad or transpose)
    ("torch.mm(a, b)", [(17, 16411), (16411, 19)], "float32", True, "transpose"),  # split, K padded
    ("a @ b.t()", [(21, 20483), (13, 20483)], "float32", True, "pad"),  # split, w padded as it lies
    ("F.linear(a, b) + 1.5", [(9, 16384), (13, 16384)], "float32", True, "none"),  # split, nothing padded
    ("torch.mm(a, b)", [(257, 261), (261, 259)], "float32", True, "transpose"),  # gemm_align pads
    ("a @ b.t()", [(257, 261), (259, 261)], "float32", True, "pad"),  # gemm_align pads w as it lies
    ("torch.mm(a, b)", [(256, 264), (264, 260)], "float32", True, "transpose"),  # aligned, M >= 256
    ("torch.mm(a, b)", [(255, 264), (264, 260)], "float32", False, "none"),  # aligned, M < 256
    ("a @ b.t()", [(256, 264), (260, 264)], "float32", True, "none"),  # aligned, already K-major
    ("torch.mm(a, b)", [(256, 264), (264, 260)], "float16", False, "none"),  # 16-bit: B as it is
    # 16-bit rows of an odd K and N (2-byte aligned) are padded, B in its own layout
    ("torch.mm(a, b)", [(257, 261), (261, 259)], "float16", False, "pad"),
    ("torch.mm(a, b)", [(257, 262), (262, 260)], "bfloat16", False, "none"),  # 4-byte aligned: as they are
]
SPLIT_COUNT = [
    # (forward, input shapes, matmul space of the partial products, BLOCK_N, num_warps, num_stages)
    ("torch.mm(a, b)", [(509, 196613), (196613, 383)], "[22, 509, 384]", 128, 8, 3),  # gemm_large_k
    ("a @ b.t()", [(512, 1000003), (640, 1000003)], "[13, 512, 640]", 128, 8, 3),  # gemm_large_k_bt
    ("a @ b.t()", [(21, 20483), (13, 20483)], "[5, 21, 13]", 16, 4, 3),  # one tile: K / 4096 chunks
]

RUNNER = r"""
import importlib.util, json, sys
import torch
import torch.nn.functional as F
jobs = json.loads(sys.argv[1])
failures = []
for job in jobs:
    spec = importlib.util.spec_from_file_location("gen", job["gen"])
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    torch.manual_seed(0)
    a, b = (torch.randn(*s) / s[-1] ** job["scale"] for s in job["shapes"])
    if job.get("dtype") == "float16":
        a, b = a.half(), b.half()
    want = eval(job["expr"])
    got = gen.ModelNew()(a, b)
    tol = 1e-2 if job.get("dtype") == "float16" else 1e-4
    ok = torch.allclose(got.float(), want.float(), atol=tol, rtol=tol)
    failures.append(None if ok else job["expr"] + ": max diff " + str((got - want).abs().max().item()))
print(json.dumps(failures))
"""


def copies_of_copies(gen):
    """The copy launches in the generated forward() that read the output of another copy launch."""
    forward = gen.read_text().split("def forward", 1)[1]
    copied, found = set(), []
    for out, fn, args in re.findall(r"(\w+) = (\w+)\(([^)]*)\)", forward):
        if fn.startswith("pointwise_copy"):
            found += [f"{fn}({args})" for arg in args.split(",") if arg.strip() in copied]
            copied.add(out)
    return found


def convert(tmp_path, name, expr, shapes):
    return convert_forward(tmp_path, name, expr, ", ".join(f"torch.randn{s}" for s in shapes), params="a, b")


@pytest.mark.parametrize("pass_name", ["split_k", "gemm_align"])
def test_gemm_pass(tmp_path, pass_name):
    jobs = []
    if pass_name == "split_k":
        for i, (expr, shapes) in enumerate(SPLIT_K):
            gen = convert(tmp_path, f"sk{i}", expr, shapes)
            kernels = emitted_kernels(gen)
            assert "matmul space [" in kernels and "axes {0}: sum" in kernels, f"{expr}: not split\n{kernels}"
            assert not copies_of_copies(gen), f"{expr}: copies of copies {copies_of_copies(gen)}\n{kernels}"
            jobs.append({"gen": str(gen), "expr": expr, "shapes": shapes, "scale": 0.25})
    else:
        for i, (expr, shapes, padded) in enumerate(GEMM_ALIGN):
            gen = convert(tmp_path, f"ga{i}", expr, shapes)
            kernels = emitted_kernels(gen)
            copied = "pointwise space" in kernels and "copy*" in kernels
            assert copied == padded, f"{expr}: padded copy {copied}\n{kernels}"
            assert not copies_of_copies(gen), f"{expr}: copies of copies {copies_of_copies(gen)}\n{kernels}"
            jobs.append({"gen": str(gen), "expr": expr, "shapes": shapes, "scale": 0.0})
    failures = run_interpreted(RUNNER, jobs, timeout=600)
    assert not failures, "\n".join(failures)


def b_pointers(gen):
    """The matmul kernel's B pointer line."""
    return re.search(r"^ *b_ptrs = .*$", gen.read_text(), re.M).group(0)


def b_copy(gen):
    """How the generated forward copies its input b: none, pad (a copy in b's layout) or transpose."""
    text = gen.read_text()
    called = re.findall(r"= (pointwise_copy\w*)\(b,", text.split("def forward", 1)[1])
    if not called:
        return "none"
    kernel = text.split(f"def {called[0]}_kernel(", 1)[1].split("@triton.jit", 1)[0]
    return "transpose" if "BLOCK_T" in kernel else "pad"


def test_b_layout(tmp_path):
    jobs = []
    for i, (expr, shapes, dtype, k_major, copy) in enumerate(B_LAYOUT):
        inputs = ", ".join(f"torch.randn{s}.to(torch.{dtype})" for s in shapes)
        gen = convert_forward(tmp_path, f"bl{i}", expr, inputs, params="a, b")
        kernels = emitted_kernels(gen)
        ptrs = b_pointers(gen)
        assert ("rk[:, None] + " in ptrs) == k_major, f"{expr} {shapes} {dtype}: B K-major {k_major}: {ptrs}"
        assert b_copy(gen) == copy, f"{expr} {shapes} {dtype}: B copy {b_copy(gen)}, want {copy}\n{kernels}"
        assert not copies_of_copies(gen), f"{expr}: copies of copies {copies_of_copies(gen)}\n{kernels}"
        jobs.append({"gen": str(gen), "expr": expr, "shapes": shapes, "scale": 0.25, "dtype": dtype})
    failures = run_interpreted(RUNNER, jobs, timeout=600)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("expr, shapes, space, block_n, warps, stages", SPLIT_COUNT)
def test_split_count(tmp_path, expr, shapes, space, block_n, warps, stages):
    gen = convert(tmp_path, "count", expr, shapes)
    kernels = emitted_kernels(gen)
    assert f"matmul space {space}" in kernels, kernels
    text = gen.read_text()
    assert f"BLOCK_N={block_n}," in text and f"dict(num_warps={warps}, num_stages={stages})" in text, text
