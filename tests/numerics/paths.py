"""Paths shared by the numerics tests."""

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = ROOT / "tests" / "corpus"
FIXTURES = HERE / "fixtures"
EXAMPLES = ROOT / "examples"
TRITONIZE = Path(os.environ.get("TRITONIZE_BIN", ROOT / "build" / "tritonize"))
