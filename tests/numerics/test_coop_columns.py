"""Cooperative column blocks (kernel/lower_reduction.cpp): an fp32 softmax / log_softmax over a non-innermost dim of
257 to 8192 elements splits each column block [R, BLOCK_I] of an outer index over GROUPS programs of [128, BLOCK_I]
that exchange their partials ([1, BLOCK_I]: each column's max and sum of exp against it) through the block's counter,
then write their rows from registers. Under Triton's interpreter a column block is one group of one (programs run
one after another, so none may wait), which still runs the exchange code. test_cooperative_columns_in_groups runs
groups of several programs anyway, in the real chunks of 128 rows, by launching the kernel three times with the
counters filled so that no program waits: launch k + 1 reads every partial of launch k (each program rewrites its
own with the same value), so after the second launch the output must be right; that checks the chunking, the masks
(a last chunk past R, columns past I), the per-lane partial slots and the online combine (the rescaling by
exp(m_c - M), a chunk of -inf counting and then scaling to 0, a column of -inf giving NaN as in PyTorch, a NaN
spreading over its column). test_cooperative_columns_rule checks which columns take the form. On the GPU:
docs/RESULTS.md (act_log_softmax_module)."""

from .paths import convert_forward, run_interpreted

# -inf over a whole column, over whole chunks of a column (rows 0..299: chunks 0 and 1), in one element; a NaN; a
# large value in the last chunk after small ones; a run of -1e30 (finite, far below the max). (Through a view of x
# as [outer, R, inner].)
FIX = ("y = x.view(x.shape[0], x.shape[1], -1); y[0, :, 0] = float('-inf'); y[1, :300, 3] = float('-inf');"
       " y[0, 5, 4] = float('-inf'); y[1, 7, 5] = float('nan'); y[0, -3, 9] = 50.0; y[1, 100:, 11] = -1e30")

# (forward expression, input shape); every one fp32, compared at 1e-5
CASES = [
    ("torch.softmax(x, dim=1)", (2, 1000, 70)),  # 8 groups, the last one of 104 rows; 2 column blocks, 6 masked
    ("torch.log_softmax(x * 2.0, dim=1)", (2, 900, 40)),  # 8 groups (the least), 40 of 64 lanes
    ("torch.nn.functional.log_softmax(x, dim=1)", (2, 1500, 3, 12)),  # 12 groups over merged inner dims (36)
]

RUNNER = r"""
import importlib.util, json, sys
import torch, triton
GROUPS = sys.argv[2] == "groups"


class Repeated:  # launches the kernel once for its exchange, and twice more
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
for path, call, shape, fix in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    if GROUPS:
        name = next(n for n in dir(m) if n.endswith("_kernel") and n != "_zero_counts_kernel")
        setattr(m, name, Repeated(getattr(m, name)))
        m._coop_split = lambda kernel, size, chunk: (triton.cdiv(size, chunk), chunk)  # the GPU's split
        m._zero_counts_kernel = Fill()
    torch.manual_seed(0)
    x = torch.randn(*shape)
    exec(fix, {"x": x})
    ref = eval(call, {"torch": torch, "x": x})
    got = m.ModelNew()(x)
    ok = got.shape == ref.shape and torch.allclose(got, ref, atol=1e-5, rtol=1e-5, equal_nan=True)
    diff = (got - ref).abs().nan_to_num(0.0).max().item()
    nan = (got.isnan() != ref.isnan()).sum().item()
    results.append(None if ok else f"{call} on {list(shape)}: max diff {diff:.3g}, {nan} NaN mismatches")
print(json.dumps(results))
"""


def run_cases(tmp_path, mode):
    jobs = []
    for i, (call, shape) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}")
        text = out.read_text()
        assert "a cooperative column block" in text and "_coop_split(" in text, f"{call} on {shape}: not cooperative\n{text}"
        assert text.count('sem="acq_rel"') == 1, f"{call}: expected one exchange\n{text}"
        jobs.append((str(out), call, shape, FIX))
    failures = run_interpreted(RUNNER, jobs, mode)
    assert not failures, "\n".join(failures)


def test_cooperative_columns(tmp_path):
    run_cases(tmp_path, "one")


def test_cooperative_columns_in_groups(tmp_path):
    run_cases(tmp_path, "groups")


def test_cooperative_columns_rule(tmp_path):
    # (expression, input, cooperative): fp32 from 3 to 64 groups of 128; 16-bit columns, shorter and longer ones
    # stay online (measured slower, or not measured: lower_reduction.cpp); a column block that fits in
    # registers stays whole; a sum of the column beside the softmax (not a softmax pair) stays online.
    cases = [
        ("torch.softmax(x, dim=1)", "torch.randn(4, 257, 256)", True),
        ("torch.softmax(x, dim=1)", "torch.randn(2, 8192, 64)", True),
        ("torch.softmax(x, dim=1)", "torch.randn(4, 256, 256)", False),
        ("torch.softmax(x, dim=1)", "torch.randn(2, 8193, 64)", False),
        ("torch.log_softmax(x, dim=1)", "torch.randn(4, 1000, 256).to(torch.bfloat16)", False),
        ("torch.log_softmax(x, dim=1)", "torch.randn(4, 1000, 256).to(torch.float16)", False),
        ("torch.softmax(x, dim=1)", "torch.randn(4, 200, 256)", False),
        ("torch.softmax(x, dim=1) + x.sum(dim=1, keepdim=True)", "torch.randn(4, 1000, 256)", False),
    ]
    for i, (call, inp, coop) in enumerate(cases):
        text = convert_forward(tmp_path, f"rule{i}", call, inp).read_text()
        assert ("a cooperative column block" in text) == coop, f"{call} on {inp}: expected cooperative={coop}\n{text}"


def test_unaligned_columns_tile(tmp_path):
    # Columns whose rows are not 16-byte aligned (70 floats apart; every element its own load) take chunks of 256 rows
    # on 32 lanes and 8 warps (registers: lower_reduction.cpp, kCoopScalarColumnChunk); aligned ones 128 x 64 on 4.
    # CASES above run the unaligned form's values.
    for name, inp, tile in (("unaligned", "torch.randn(2, 1000, 70)", ("BLOCK_I=32", "256)", "num_warps=8")),
                            ("aligned", "torch.randn(2, 1000, 64)", ("BLOCK_I=64", "128)", "num_warps=4"))):
        text = convert_forward(tmp_path, name, "torch.softmax(x, dim=1)", inp).read_text()
        assert "a cooperative column block" in text, text
        assert all(t in text for t in tile), f"{inp}: expected {tile}\n{text}"
