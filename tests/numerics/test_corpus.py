"""Every problem in tests/corpus, end to end: `tritonize convert` (shrunk with the file's `# cpu-shrink:` line),
then the generated file under Triton's interpreter on the CPU against eager PyTorch (protocol.py), and the
static check (static_check.py) on it.

A problem whose file has a `# cpu-skip: REASON` line is skipped with that reason (something the interpreter
cannot run; the GPU suite covers it). A problem listed in known_failures.txt is expected to fail (a strict xfail
of test_numerics: once it passes, take it off the list).
"""

import ast
import functools
import re
import subprocess

import pytest

from .paths import CORPUS, HERE, ROOT, TRITONIZE
from .protocol import format_failure, run_protocol
from .static_check import check_source

SHRINK_RE = re.compile(r"^# cpu-shrink:(.*)$", re.MULTILINE)
SKIP_RE = re.compile(r"^# cpu-skip:(.*)$", re.MULTILINE)
TIMEOUT_S = 300


def corpus_files():
    return sorted(p for p in CORPUS.glob("*.py") if SHRINK_RE.search(p.read_text()))


def known_failures():
    """{file name: reason} from known_failures.txt: `NAME.py  reason`, '#' comments."""
    out = {}
    path = HERE / "known_failures.txt"
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, reason = line.partition(" ")
                out[name] = reason.strip() or "known failure"
    return out


def shrink_args(text):
    """The `--set NAME=VALUE` words of the file's `# cpu-shrink:` line."""
    lines = SHRINK_RE.findall(text)
    if len(lines) != 1:
        raise ValueError(f"expected one '# cpu-shrink:' line, found {len(lines)}")
    words = lines[0].split()
    if len(words) % 2 or any(w != "--set" for w in words[::2]):
        raise ValueError(f"malformed cpu-shrink line: {lines[0].strip()!r}")
    return words


def _params(strict):
    known = known_failures()
    params = []
    for p in corpus_files():
        marks = []
        if p.name in known:
            marks.append(pytest.mark.xfail(reason=known[p.name], strict=strict))
        params.append(pytest.param(p, id=p.stem, marks=marks))
    return params


_converted = {}  # corpus file -> generated file, per test process


@pytest.fixture(scope="session")
def gen_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("generated")


def convert(path, gen_dir, failure=functools.partial(pytest.fail, pytrace=False)):
    """Runs `tritonize convert` on the shrunk problem once per test process; returns (generated path, args).
    When it fails, failure(message) is called (pytest.fail, or pytest.skip where another test reports it)."""
    text = path.read_text()
    skip = SKIP_RE.findall(text)
    if skip:
        pytest.skip(skip[0].strip() or "cpu-skip")
    args = shrink_args(text)
    if path in _converted:
        return _converted[path], args
    if not TRITONIZE.exists():
        failure(f"{TRITONIZE} does not exist: build it first (scripts/setup.sh)")
    out = gen_dir / f"{path.stem}_triton.py"
    cmd = [str(TRITONIZE), "convert", str(path), "-o", str(out), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)
    if proc.returncode != 0:
        failure(f"`{' '.join(cmd)}` exited with {proc.returncode}:\n{proc.stderr}{proc.stdout}")
    if not out.exists():
        failure(f"`{' '.join(cmd)}` wrote no {out}")
    _converted[path] = out
    return out, args


# A known failure must fail end to end (strict); its static check may pass already.
@pytest.mark.parametrize("path", _params(strict=True))
def test_numerics(path, gen_dir):
    gen, args = convert(path, gen_dir)
    overrides = args[1::2]
    result = run_protocol(path, gen, overrides, timeout=TIMEOUT_S)
    if not result["ok"]:
        pytest.fail(f"{path.name} (generated file: {gen})\n" + format_failure(result), pytrace=False)


@pytest.mark.parametrize("path", _params(strict=False))
def test_static(path, gen_dir):
    def failure(message):  # test_numerics reports a failed conversion; once is enough
        pytest.skip("conversion failed (see test_numerics): " + message.splitlines()[0])
    gen, _ = convert(path, gen_dir, failure)
    problems = check_source(gen.read_text(), str(gen))
    if problems:
        pytest.fail(f"{gen} breaks the output contract:\n" + "\n".join(f"  {gen.name}:{p}" for p in problems),
                    pytrace=False)


def launch_order_problems(source):
    """Each `_launch(kernel, grid, dict(...), ...)` whose argument names are not the kernel's parameters in order
    (its fast path passes them by position, which the interpreter never exercises)."""
    tree = ast.parse(source)
    params = {f.name: [a.arg for a in f.args.args] for f in tree.body
              if isinstance(f, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in f.decorator_list)}
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_launch":
            kernel, args = node.args[0], node.args[2]
            names = [k.arg for k in args.keywords] if isinstance(args, ast.Call) else None
            if not isinstance(kernel, ast.Name) or names != params.get(kernel.id):
                problems.append(f"line {node.lineno}: {ast.unparse(node)[:100]}")
    return problems


@pytest.mark.parametrize("path", _params(strict=False))
def test_launch_argument_order(path, gen_dir):
    gen, _ = convert(path, gen_dir, lambda message: pytest.skip("conversion failed (see test_numerics)"))
    source = gen.read_text()
    assert "_launch(" in source
    problems = launch_order_problems(source)
    assert not problems, f"{gen}: launch arguments out of the kernel's parameter order:\n" + "\n".join(problems)
