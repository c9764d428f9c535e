#!/usr/bin/env python3
"""Expected-error tests: every tests/errors/*.py holds one or more lines

    # expect-error: LINE:COL: MESSAGE-SUBSTRING

and optionally `# args: --set X=1 ...`. The compiler must exit non-zero, print each expected diagnostic as
`<file>:LINE:COL: error: ...MESSAGE-SUBSTRING...` followed by the quoted source line and a caret, and write no
output file.
"""
import argparse
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
EXPECT = re.compile(r"#\s*expect-error:\s*(\d+):(\d+):\s*(.*\S)")
ARGS = re.compile(r"#\s*args:\s*(.*)")


def check(tritonize, path):
    text = path.read_text()
    expects = [(int(m[1]), int(m[2]), m[3]) for m in EXPECT.finditer(text)]
    args = []
    for m in ARGS.finditer(text):
        args += shlex.split(m[1])
    if not expects:
        return [f"{path.name}: no '# expect-error:' line"]
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "out.py"
        proc = subprocess.run([tritonize, "convert", str(path), "-o", str(out), *args],
                              capture_output=True, text=True, timeout=30)
        problems = []
        if proc.returncode == 0:
            problems.append(f"{path.name}: conversion succeeded, expected an error")
        if proc.returncode < 0 or proc.returncode > 2:
            problems.append(f"{path.name}: exit code {proc.returncode} (a crash?)")
        if out.exists():
            problems.append(f"{path.name}: an output file was written")
        if "internal error" in proc.stderr:
            problems.append(f"{path.name}: internal error instead of a user error:\n{proc.stderr}")
        lines = proc.stderr.splitlines()
        for line, col, message in expects:
            prefix = f"{path}:{line}:{col}: error: "
            hit = [i for i, l in enumerate(lines) if l.startswith(prefix) and message in l]
            if not hit:
                problems.append(f"{path.name}: missing `{prefix}...{message}...`; got:\n{proc.stderr}")
                continue
            i = hit[0]
            source_line = text.splitlines()[line - 1]
            if i + 2 >= len(lines) or lines[i + 1].strip() != source_line.strip() or lines[i + 2].strip() != "^":
                problems.append(f"{path.name}: diagnostic at {line}:{col} lacks the source line and caret")
            elif len(lines[i + 2]) - len(lines[i + 2].lstrip()) - 2 != col - 1:
                problems.append(f"{path.name}: caret not under column {col}")
        return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tritonize", required=True)
    opts = ap.parse_args()
    files = sorted(HERE.glob("*.py"))
    files = [f for f in files if f.name != pathlib.Path(__file__).name]
    failures = []
    for f in files:
        failures += check(opts.tritonize, f)
    for f in failures:
        print("FAIL", f)
    print(f"errors: {len(files) - len({f.split(':')[0] for f in failures})}/{len(files)} files passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
