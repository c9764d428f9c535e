"""Finding problems and their generated files."""
import os

import pytest

import harness_paths  # noqa: F401  (puts python/ on sys.path)
from tritonize import problem, runner

REFERENCE = '''# dtype: {dtype}
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x


def get_inputs():
    return [torch.randn(2)]


def get_init_inputs():
    return []
'''


@pytest.fixture
def tree(tmp_path):
    for rel, dtype in [("level1/1_a.py", "fp32"), ("level1/2_b.py", "fp16"), ("level2/1_a.py", "bf16"),
                       ("level2/notes.py", None)]:
        path = tmp_path / "corpus" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(REFERENCE.format(dtype=dtype) if dtype else "x = 1\n")
    return tmp_path


def test_discover_ids_groups_levels_dtypes(tree):
    found = problem.discover([str(tree / "corpus")])
    assert [(p.id, p.group, p.level, p.dtype) for p in found] == [
        ("level1/1_a", "level1", 1, "fp32"), ("level1/2_b", "level1", 1, "fp16"), ("level2/1_a", "level2", 2, "bf16")]


def test_discover_single_file_and_set_file(tree):
    single = problem.discover([str(tree / "corpus" / "level1" / "2_b.py")])
    assert [(p.id, p.group) for p in single] == [("2_b", "level1")]
    set_file = tree / "set.txt"
    set_file.write_text("# two problems\ncorpus/level1/1_a.py\ncorpus/level2/1_a.py\n")
    assert len(problem.discover([], str(set_file))) == 2


def test_generated_paths(tree):
    found = problem.discover([str(tree / "corpus")])
    gen = str(tree / "gen")
    # 1_a.py exists twice: its generated files are kept apart by id; 2_b.py goes to GEN/2_b.py
    assert problem.generated_path(found[0], gen, found) == os.path.join(gen, "level1/1_a.py")
    assert problem.generated_path(found[1], gen, found) == os.path.join(gen, "2_b.py")
    os.makedirs(os.path.join(gen, "2_b"))
    for name in ("s1.py", "s0.py"):
        open(os.path.join(gen, "2_b", name), "w").close()
    assert [os.path.basename(p) for p in problem.find_samples(found[1], gen)] == ["s0.py", "s1.py"]
    jobs = runner.plan_jobs(found, runner.Options(gen_dir=gen))
    assert [(j.problem.id, j.sample) for j in jobs] == [("level1/1_a", ""), ("level1/2_b", "s0"),
                                                       ("level1/2_b", "s1"), ("level2/1_a", "")]


def test_pairs_file(tree):
    pairs = tree / "pairs.txt"
    pairs.write_text("corpus/level1/1_a.py\tgen/x.py\ncorpus/level1/1_a.py gen/y.py  # a second sample\n\n")
    found = problem.problems_from_pairs(problem.read_pairs(str(pairs)))
    assert len(found) == 1 and found[0].id == "1_a" and len(found[0].samples) == 2
    pairs.write_text("only_one_field.py\n")
    with pytest.raises(ValueError):
        problem.read_pairs(str(pairs))


def test_gpu_ids(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3,5,7")
    assert runner.gpu_ids(2) == [3, 5]
    with pytest.raises(ValueError):
        runner.gpu_ids(4)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    assert runner.gpu_ids(2) == [0, 1]
    assert runner.gpu_ids(0) == [None]
