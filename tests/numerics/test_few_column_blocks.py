"""Few column blocks (kernel/lower_reduction.cpp, kCoopColumnFewBlocks): a looped softmax / log_softmax over columns
that the online form would run on fewer than 264 programs (one per column block) takes the cooperative column form at
any element size: 16-bit columns ([128, 64] on 4 warps; [256, 32] on 8 when rows are not 16-byte aligned) and columns
longer than 64 chunks of 128 rows ([256, 64] on 8 warps, up to 64 chunks). The shapes of
tests/corpus/log_softmax_rows_cols_fp16.py (an fp16 log_softmax over the rows of x stored transposed, plus the one over
its columns) are one case. Values are checked against PyTorch (fp16/bf16 at 1e-2, as KernelBench does) under Triton's
interpreter, once as it launches there (a column block one group of one) and once in the GPU's chunks (the kernel
launched three times with counters that let no program wait, as test_coop_columns.py does)."""

from .paths import convert_forward, run_interpreted

# (forward expression, input expression, (BLOCK_R, BLOCK_I, warps) of the cooperative kernel)
CASES = [
    # fp16 [70, 601] as the corpus problem: its column kernel's rows are x's 601-element rows, stored transposed;
    # one column block online (128 wide), so cooperative; rows of 601 fp16 are not 16-byte aligned: [256, 32] on 8,
    # 3 groups over 3 column blocks (the last of 6 columns).
    ("torch.log_softmax(x.t(), dim=1) + x.t().log_softmax(dim=0)", "torch.randn(70, 601).to(torch.float16)",
     (256, 32, 8)),
    # bf16 aligned columns: 2 column blocks online, [128, 64] on 4 warps, 6 groups (the last of 60 rows).
    ("torch.log_softmax(x, dim=1)", "torch.randn(2, 700, 64).to(torch.bfloat16)", (128, 64, 4)),
    # fp16 softmax of 8300 rows: 65 chunks of 128, so 33 of 256 on 8 warps (16 columns).
    ("torch.softmax(x * 2.0, dim=1)", "torch.randn(1, 8300, 16).to(torch.float16)", (256, 16, 8)),
]

RUNNER = r"""
import importlib.util, json, sys
import torch, triton
GROUPS = sys.argv[2] == "groups"


class Repeated:  # launches the kernel once for its exchange, and twice more (see test_coop_columns.py)
    def __init__(self, kernel):
        self.kernel = kernel

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            for _ in range(3):
                self.kernel[grid](*args, **kwargs)
        return launch


class Fill:  # stands in for _zero_counts_kernel: counters so high that nobody waits
    def __getitem__(self, grid):
        return lambda count_ptr, N, BLOCK, num_warps: count_ptr.fill_(1 << 20)


results = []
for path, call, inp in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    if GROUPS:
        for name in [n for n in dir(m) if n.endswith("_kernel") and n != "_zero_counts_kernel"]:
            setattr(m, name, Repeated(getattr(m, name)))
        m._coop_split = lambda kernel, size, chunk: (triton.cdiv(size, chunk), chunk)  # the GPU's split
        m._zero_counts_kernel = Fill()
    torch.manual_seed(0)
    x = eval(inp, {"torch": torch})
    # a column of -inf (NaN out, as PyTorch), a NaN, a large value late in a column after small ones
    # (2-D inputs are reduced along their rows: seen as [1, R, columns] through the transpose)
    v = x.t().unsqueeze(0) if x.dim() == 2 else x.view(x.shape[0], x.shape[1], -1)
    v[0, :, 1] = float("-inf")
    v[-1, 5, 2] = float("nan")
    v[0, -3, 3] = 9.0
    ref = eval(call, {"torch": torch, "x": x})
    got = m.ModelNew()(x)
    ok = got.shape == ref.shape and got.dtype == ref.dtype and torch.allclose(
        got.float(), ref.float(), atol=1e-2, rtol=1e-2, equal_nan=True)
    diff = (got.float() - ref.float()).abs().nan_to_num(0.0).max().item()
    nan = (got.isnan() != ref.isnan()).sum().item()
    results.append(None if ok else f"{call} on {inp}: max diff {diff:.3g}, {nan} NaN mismatches")
print(json.dumps(results))
"""


def run_cases(tmp_path, mode):
    jobs = []
    for i, (call, inp, (block_r, block_i, warps)) in enumerate(CASES):
        text = convert_forward(tmp_path, f"case{i}", call, inp).read_text()
        assert "a cooperative column block" in text and "_coop_split(" in text, f"{call} on {inp}: not cooperative\n{text}"
        assert f", {block_r})" in text and f"BLOCK_I={block_i}, num_warps={warps}" in text, (
            f"{call} on {inp}: expected [{block_r}, {block_i}] on {warps} warps\n{text}")
        jobs.append((str(tmp_path / f"case{i}_triton.py"), call, inp))
    failures = run_interpreted(RUNNER, jobs, mode)
    assert not failures, "\n".join(failures)


def test_few_column_blocks(tmp_path):
    run_cases(tmp_path, "one")


def test_few_column_blocks_in_groups(tmp_path):
    run_cases(tmp_path, "groups")


def test_many_column_blocks_stay_online(tmp_path):
    # 16-bit columns over 264 or more column blocks keep the online form (measured faster there: lower_reduction.cpp),
    # and so do columns of more than 64 chunks of 256 rows.
    for i, (call, inp) in enumerate([("torch.log_softmax(x, dim=1)", "torch.randn(3, 1000, 11264).to(torch.bfloat16)"),
                                     ("torch.softmax(x, dim=1)", "torch.randn(1, 16385, 64).to(torch.float16)")]):
        text = convert_forward(tmp_path, f"many{i}", call, inp).read_text()
        assert "a cooperative column block" not in text and "online softmax" in text, f"{call} on {inp}\n{text}"
