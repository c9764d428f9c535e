"""pytest setup for the harness tests: import tritonize from python/, and paths to the test files."""
import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))

DATA = os.path.join(REPO, "tests", "python", "data")
STATIC_CASES = os.path.join(REPO, "tests", "python", "static_cases")
HACKS = os.path.join(REPO, "tests", "gpu", "hacks")


@pytest.fixture
def repo():
    return REPO
