"""Problems on disk: finding reference files, naming them, pairing them with generated files, loading them.

A problem is one KernelBench-format reference file (class Model, get_inputs, get_init_inputs). Its id is its
path relative to the directory given on the command line, without ".py" ("level1/19_ReLU"); its group is the
first directory of the id, or the name of the directory holding it. A generated file for reference X/foo.py is
GEN_DIR/foo.py (or GEN_DIR/<id>.py when the id has directories); a directory GEN_DIR/foo/ instead holds several
samples of the same problem (*.py, one sample each), for pass@k.

This module imports no torch: the bench parent uses it too.
"""
from __future__ import annotations

import importlib.util
import os
import re
import sys
from dataclasses import dataclass, field

DTYPES = ("fp32", "fp16", "bf16")
_DTYPE_LINE = re.compile(r"^#\s*dtype:\s*(fp32|fp16|bf16)\s*$", re.MULTILINE)
_LEVEL = re.compile(r"level[_-]?(\d+)", re.IGNORECASE)


@dataclass
class Problem:
    ref: str                           # path of the reference file
    id: str                            # "level1/19_ReLU"
    group: str                         # "level1"
    level: int | None                  # 1, or None when the group names no level
    dtype: str | None = None           # from a "# dtype: fp16" line, if any
    samples: list[str] = field(default_factory=list)  # generated files, filled by pair_generated

    @property
    def stem(self) -> str:
        return os.path.splitext(os.path.basename(self.ref))[0]


def read_dtype_directive(path: str) -> str | None:
    """The dtype named by a line "# dtype: fp16" (or bf16, fp32) in the file, or None."""
    with open(path, encoding="utf-8") as f:
        m = _DTYPE_LINE.search(f.read())
    return m.group(1) if m else None


def is_problem_file(path: str) -> bool:
    """A reference problem: a .py file that defines Model and get_inputs (checked by text, nothing is run)."""
    if not path.endswith(".py") or os.path.basename(path).startswith(("_", ".")):
        return False
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    return re.search(r"^class\s+Model\b", text, re.MULTILINE) is not None and "def get_inputs" in text


def discover(paths: list[str], set_file: str | None = None) -> list[Problem]:
    """Problems under the given files and directories (recursively), and those listed in set_file."""
    listed = list(paths)
    if set_file:
        base = os.path.dirname(os.path.abspath(set_file))
        with open(set_file, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    listed.append(line if os.path.isabs(line) or os.path.exists(line) else os.path.join(base, line))
    problems: dict[str, Problem] = {}
    for path in listed:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if is_problem_file(full):
                        _add(problems, full, os.path.relpath(full, path), os.path.basename(os.path.normpath(path)))
        elif os.path.isfile(path):
            _add(problems, path, os.path.basename(path), os.path.basename(os.path.dirname(os.path.abspath(path))))
        else:
            raise FileNotFoundError(f"no such problem file or directory: {path}")
    return list(problems.values())


def _add(problems: dict[str, Problem], path: str, relative: str, parent_name: str) -> None:
    key = os.path.abspath(path)
    if key in problems:
        return
    pid = os.path.splitext(relative)[0].replace(os.sep, "/")
    group = pid.split("/")[0] if "/" in pid else parent_name
    m = _LEVEL.search(group)
    problems[key] = Problem(ref=path, id=pid, group=group, level=int(m.group(1)) if m else None,
                            dtype=read_dtype_directive(path))


def generated_path(problem: Problem, gen_dir: str, all_problems: list[Problem]) -> str:
    """Where the generated file for a problem goes: GEN_DIR/<stem>.py unless two problems share a stem."""
    clash = sum(1 for p in all_problems if p.stem == problem.stem) > 1
    return os.path.join(gen_dir, (problem.id if clash else problem.stem) + ".py")


def find_samples(problem: Problem, gen_dir: str) -> list[str]:
    """Existing generated files for a problem: GEN_DIR/<id>.py, GEN_DIR/<stem>.py, or the *.py of such a dir."""
    for name in (problem.id, problem.stem):
        base = os.path.join(gen_dir, name)
        if os.path.isdir(base):
            samples = sorted(os.path.join(base, f) for f in os.listdir(base) if f.endswith(".py"))
            if samples:
                return samples
        if os.path.isfile(base + ".py"):
            return [base + ".py"]
    return []


def read_pairs(path: str) -> list[tuple[str, str]]:
    """A pairs file: one "REF<whitespace>GEN" per line; blank lines and # comments are skipped."""
    pairs = []
    base = os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split("\t") if "\t" in line else line.split()
            if len(fields) != 2:
                raise ValueError(f"{path}:{number}: expected 'REF GEN', got {line!r}")
            pairs.append(tuple(p if os.path.isabs(p) else os.path.join(base, p) for p in fields))
    return pairs


def problems_from_pairs(pairs: list[tuple[str, str]]) -> list[Problem]:
    """Problems for explicit (reference, generated) pairs; several pairs with one reference become samples."""
    by_ref: dict[str, Problem] = {}
    for ref, gen in pairs:
        key = os.path.abspath(ref)
        if key not in by_ref:
            parent = os.path.basename(os.path.dirname(key))
            m = _LEVEL.search(parent)
            stem = os.path.splitext(os.path.basename(ref))[0]
            by_ref[key] = Problem(ref=ref, id=stem, group=parent, level=int(m.group(1)) if m else None,
                                  dtype=read_dtype_directive(ref))
        by_ref[key].samples.append(gen)
    return list(by_ref.values())


def load_module(path: str, name: str):
    """Import a file as a module under a fresh name (Triton needs kernels to live in real files)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def with_overrides(ref: str, settings: list[str], directory: str) -> str:
    """A copy of `ref` in `directory` whose top-level assignments to each NAME assign VALUE instead (the meaning of
    `tritonize convert --set NAME=VALUE`, so the reference and the generated file agree on the sizes)."""
    with open(ref, encoding="utf-8") as f:
        text = f.read()
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier():
            raise ValueError(f"--set expects NAME=VALUE, got {item!r}")
        text, count = re.subn(rf"^{name}\s*=(?!=).*$", f"{name} = {value}", text, flags=re.MULTILINE)
        if count == 0:
            # Assigned with others (`a, b = 1, 2`): rebind it after the top level ran.
            if not re.search(rf"^[\w ,()]*\b{name}\b[\w ,()]*=(?!=)", text, flags=re.MULTILINE):
                raise ValueError(f"--set: no module-level constant named {name!r} in {ref}")
            text += f"\n{name} = {value}  # tritonize --set\n"
    os.makedirs(directory, exist_ok=True)
    out = os.path.join(directory, os.path.basename(ref))
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return out
