"""Indexed reads, all traced as one graph op (ops.def: gather): torch.gather / Tensor.gather, torch.index_select /
Tensor.index_select, torch.take_along_dim, F.embedding / nn.Embedding and indexing with one integer tensor (x[idx],
x[:, idx], negative indices from the end). They were all refused. Each case runs the generated file under Triton's
interpreter against eager PyTorch: the same shape and values within atol = rtol = 1e-4 (1e-2 for 16-bit x), on odd
sizes, every dim, non-contiguous x and index, duplicate indices, int32 indices, indices computed in forward
(arithmetic, an argmax), a gather's pointwise consumers and reductions, and NaN / inf in x. nn.Embedding is checked
as a module: ModelNew draws the same weight under one seed (normal_, the padding_idx row zeroed) and computes the
same lookup."""

import subprocess

import pytest

from .paths import FORWARD_RUNNER, TRITONIZE, convert_forward, run_interpreted

# paths.FORWARD_RUNNER, also comparing dtypes and taking NaN where eager has NaN
RUNNER = FORWARD_RUNNER.replace("ok = got.shape == want.shape and torch.allclose(got, want, atol=tol, rtol=tol)",
                                "ok = got.shape == want.shape and got.dtype == want.dtype and "
                                "torch.allclose(got, want, atol=tol, rtol=tol, equal_nan=True)")
assert RUNNER != FORWARD_RUNNER

IDX = "torch.randint(0, 7, (5, 3))"

# (forward's expression, get_inputs' expression, forward's parameters)
CASES = [
    # torch.gather: each dim, negative dims, index smaller than x off the gathered dim, duplicates
    ("torch.gather(x, 1, idx)", f"torch.randn(5, 7), {IDX}", "x, idx"),
    ("x.gather(0, idx)", "torch.randn(5, 7), torch.randint(0, 5, (3, 6))", "x, idx"),
    ("torch.gather(x, -1, idx)", "torch.randn(3, 4, 9), torch.randint(0, 9, (2, 4, 5))", "x, idx"),
    ("torch.gather(x, dim=1, index=idx)", "torch.randn(3, 5, 6), torch.randint(0, 5, (3, 11, 4))", "x, idx"),
    ("x.gather(-3, idx)", "torch.randn(4, 3, 5), torch.randint(0, 4, (6, 3, 5))", "x, idx"),
    ("torch.gather(x, 1, idx)", "torch.randn(4, 6), torch.tensor([[1, 1, 1], [0, 0, 5], [3, 3, 3], [5, 0, 5]])",
     "x, idx"),
    ("torch.gather(x, 0, idx)", "torch.randn(37), torch.randint(0, 37, (53,))", "x, idx"),
    # non-contiguous x (a transposed input), a non-contiguous index, an int32 index, an integer x
    ("torch.gather(x, 1, idx) * 2", f"torch.randn(7, 5).t(), {IDX}", "x, idx"),
    ("torch.gather(x, 0, idx)", "torch.randn(5, 7), torch.randint(0, 5, (7, 5)).t()", "x, idx"),
    ("torch.gather(x, 1, idx)", "torch.randn(5, 7), torch.randint(0, 7, (5, 3), dtype=torch.int32)", "x, idx"),
    ("torch.gather(x, 1, idx) + 1", "torch.randint(-9, 9, (5, 7)), torch.randint(0, 7, (5, 3))", "x, idx"),
    # a sliced x (read from an element offset), a computed x (in memory from another kernel), an expanded index
    ("x[1:, 2:].gather(1, idx)", "torch.randn(6, 9), torch.randint(0, 7, (5, 3))", "x, idx"),
    ("torch.gather(torch.sigmoid(x), 1, idx)", f"torch.randn(5, 7), {IDX}", "x, idx"),
    ("torch.gather(x, 1, idx.expand(5, 4))", "torch.randn(5, 7), torch.randint(0, 7, (1, 4))", "x, idx"),
    # indices computed in forward: arithmetic in the gather's kernel, an argmax from a reduction kernel, a
    # class index picked per row (nll-style), a gather of a gather
    ("torch.gather(x, 1, (6 - idx).clamp(min=2) - 1)", f"torch.randn(5, 7), {IDX}", "x, idx"),
    ("torch.gather(x, 1, x.argmax(dim=1, keepdim=True))", "torch.randn(6, 9)", "x"),
    ("x.gather(1, t.unsqueeze(1)).squeeze(1)", "torch.randn(9, 11), torch.randint(0, 11, (9,))", "x, t"),
    ("torch.gather(torch.gather(x, 1, idx), 1, j)",
     f"torch.randn(5, 7), {IDX}, torch.randint(0, 3, (5, 2))", "x, idx, j"),
    # pointwise consumers and reductions after a gather; NaN and inf gathered as they are
    ("torch.exp(torch.gather(x, 1, idx)) - x[:, :1]", f"torch.randn(5, 7), {IDX}", "x, idx"),
    ("torch.gather(x, 1, idx).sum(dim=1)", f"torch.randn(5, 7), {IDX}", "x, idx"),
    ("torch.softmax(torch.gather(x, 2, idx), dim=-1)", "torch.randn(3, 4, 9), torch.randint(0, 9, (3, 4, 13))",
     "x, idx"),
    ("torch.gather(x, 0, idx).amax(dim=0)", "torch.randn(5, 7), torch.randint(0, 5, (9, 7))", "x, idx"),
    ("torch.gather(torch.log(x), 1, idx)", f"torch.randn(5, 7), {IDX}", "x, idx"),
    ("torch.gather(x / 0.0, 1, idx)", f"torch.randn(5, 7), {IDX}", "x, idx"),
    # index_select: each dim, a 0-d index (keeps the dim), int32, repeated rows
    ("torch.index_select(x, 0, i)", "torch.randn(7, 5), torch.randint(0, 7, (9,))", "x, i"),
    ("x.index_select(-1, i) * 2", "torch.randn(3, 4, 7), torch.randint(0, 7, (5,))", "x, i"),
    ("torch.index_select(x, dim=1, index=i)", "torch.randn(3, 6, 5).transpose(0, 2), torch.randint(0, 6, (4,))",
     "x, i"),
    ("x.index_select(0, i)", "torch.randn(7, 5), torch.tensor(4)", "x, i"),
    ("x.index_select(1, i)", "torch.randn(3, 7), torch.tensor([6, 6, 0], dtype=torch.int32)", "x, i"),
    # take_along_dim: broadcasting either side off the dim, and the flattened form
    ("torch.take_along_dim(x, idx, dim=1)", f"torch.randn(5, 7), {IDX}", "x, idx"),
    ("torch.take_along_dim(x, idx, 1)", "torch.randn(5, 7), torch.randint(0, 7, (1, 3))", "x, idx"),
    ("x.take_along_dim(idx, dim=-1)", "torch.randn(1, 7), torch.randint(0, 7, (4, 3))", "x, idx"),
    ("torch.take_along_dim(x, idx)", "torch.randn(3, 5), torch.randint(0, 15, (4, 2))", "x, idx"),
    ("torch.take_along_dim(x, x.argmin(dim=0, keepdim=True), dim=0)", "torch.randn(6, 5)", "x"),
    # F.embedding with a weight given to forward: any index rank, 0-d, int32
    ("F.embedding(t, w)", "torch.randint(0, 11, (3, 5)), torch.randn(11, 6)", "t, w"),
    ("F.embedding(t, w, padding_idx=0) * 3", "torch.randint(0, 11, (7,)), torch.randn(11, 9)", "t, w"),
    ("F.embedding(input=t, weight=w)", "torch.tensor(3), torch.randn(11, 6)", "t, w"),
    ("F.embedding(t, w)", "torch.randint(0, 11, (2, 3, 4), dtype=torch.int32), torch.randn(11, 5)", "t, w"),
    ("F.embedding(t, w.t())", "torch.randint(0, 11, (3, 5)), torch.randn(6, 11)", "t, w"),
    # indexing with one integer tensor: negative indices count from the end; ints select first
    ("x[i]", "torch.randn(7, 5), torch.randint(-7, 7, (4,))", "x, i"),
    ("x[i] + 1", "torch.randn(7, 5, 3), torch.randint(-7, 7, (2, 3))", "x, i"),
    ("x[:, i]", "torch.randn(4, 7), torch.randint(-7, 7, (5,))", "x, i"),
    ("x[..., i] * 2", "torch.randn(2, 3, 7), torch.randint(0, 7, (2, 2))", "x, i"),
    ("x[0, :, i]", "torch.randn(3, 4, 6), torch.randint(0, 6, (2, 3))", "x, i"),
    ("x[i, 1:]", "torch.randn(7, 5), torch.randint(0, 7, (3,))", "x, i"),
    ("x[None, :, i]", "torch.randn(4, 7), torch.randint(0, 7, (3,))", "x, i"),
    ("x[i]", "torch.randn(7, 5), torch.tensor(-2)", "x, i"),
    ("x[i.int()]", "torch.randn(7, 5), torch.randint(-7, 7, (4,))", "x, i"),
]

CASES_16 = [
    ("torch.gather(x, 1, idx)", f"torch.randn(5, 7).half(), {IDX}", "x, idx"),
    ("torch.gather(x, 1, idx) * 2", f"torch.randn(5, 7, dtype=torch.bfloat16), {IDX}", "x, idx"),
    ("torch.gather(x, 1, idx).sum(dim=-1)", f"torch.randn(5, 7).half(), {IDX}", "x, idx"),
    ("x.index_select(0, i)", "torch.randn(7, 5, dtype=torch.bfloat16), torch.randint(0, 7, (3,))", "x, i"),
    ("F.embedding(t, w)", "torch.randint(0, 11, (3, 5)), torch.randn(11, 6).half()", "t, w"),
    ("x[:, i]", "torch.randn(4, 7).half(), torch.randint(-7, 7, (5,))", "x, i"),
]


def _jobs(tmp_path, cases, stem):
    jobs = []
    for k, (expr, inputs, params) in enumerate(cases):
        gen = convert_forward(tmp_path, f"{stem}{k}", expr, inputs, params)
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": [p.strip() for p in params.split(",")]})
    return jobs


def test_gather_functions_match_eager(tmp_path):
    assert run_interpreted(RUNNER, _jobs(tmp_path, CASES, "g"), "1e-4") == []


def test_gather_functions_16bit_match_eager(tmp_path):
    assert run_interpreted(RUNNER, _jobs(tmp_path, CASES_16, "h"), "1e-2") == []


# Gathers computed in the reduction kernels that read them: a row longer than registers hold (looped, softmax
# reading it twice) and columns.
LONG = [
    ("torch.gather(x, 1, idx).sum(dim=1)", "torch.randn(3, 40001), torch.randint(0, 40001, (3, 33333))", "x, idx"),
    ("torch.softmax(torch.gather(x, 1, idx), dim=1)", "torch.randn(3, 40001), torch.randint(0, 40001, (3, 33333))",
     "x, idx"),
    ("torch.gather(y, 0, j).sum(dim=0)", "torch.randn(300, 65), torch.randint(0, 300, (2500, 65))", "y, j"),
]


def test_gather_in_long_reductions_matches_eager(tmp_path):
    assert run_interpreted(RUNNER, _jobs(tmp_path, LONG, "l"), "1e-4") == []


# nn.Embedding as a module: the weight ModelNew draws under one seed equals Model's exactly (normal_, then the
# padding row zeroed), and so does the lookup.
EMBEDDING_MODULE = """
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=PADDING)
        self.pos = nn.Embedding(num_embeddings=9, embedding_dim=dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, tokens):
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        return self.norm(self.tok(tokens) + self.pos(positions))


def get_inputs():
    return [torch.randint(0, 13, (3, 9))]


def get_init_inputs():
    return [13, 10]
"""

MODULE_RUNNER = r"""
import importlib.util, json, sys
import torch
jobs = json.loads(sys.argv[1])
failures = []
def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
for job in jobs:
    src, gen = load(job["src"], "src"), load(job["gen"], "gen")
    torch.manual_seed(0)
    model = src.Model(*src.get_init_inputs())
    torch.manual_seed(0)
    new = gen.ModelNew(*src.get_init_inputs())
    same = all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), new.state_dict().values()))
    padded = model.tok.padding_idx
    tokens = src.get_inputs()[0]
    tokens[0, :3] = padded  # the padding row read too
    want, got = model(tokens), new(tokens)
    ok = same and got.shape == want.shape and torch.allclose(got, want, atol=1e-4, rtol=1e-4)
    failures.append(None if ok else job["src"] + (": weights differ" if not same else ": outputs differ"))
print(json.dumps(failures))
"""


@pytest.mark.parametrize("padding", ["0", "-2"])
def test_embedding_module_matches_eager(tmp_path, padding):
    src = tmp_path / "embedding_module.py"
    src.write_text(EMBEDDING_MODULE.replace("PADDING", padding))
    gen = tmp_path / "embedding_module_triton.py"
    r = subprocess.run([str(TRITONIZE), "convert", str(src), "-o", str(gen)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert run_interpreted(MODULE_RUNNER, [{"src": str(src), "gen": str(gen)}]) == []
