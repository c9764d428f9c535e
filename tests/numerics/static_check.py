"""The static check of a generated file, as the numerics tests use it: the harness's own checker
(python/tritonize/static_check.py, the one `tritonize check`/`bench` apply on the GPU; its rules are in
docs/HARNESS.md), with each violation as a "LINE: [RULE] message" string ([] when the file is clean).

    from static_check import check_source
    problems = check_source(text)

    python tests/numerics/static_check.py FILE...   # prints the problems, exit 1 if any
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

from tritonize import static_check as _harness  # noqa: E402


def check_source(text, filename="<generated>"):
    report = _harness.check_source(text, filename)
    return [f"{v.line}: [{v.rule}] {v.message}" for v in report.violations]


def main(paths):
    bad = 0
    for path in paths:
        for problem in check_source(Path(path).read_text(), path):
            print(f"{path}:{problem}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
