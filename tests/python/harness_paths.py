"""Paths for the harness tests; importing this module also makes python/tritonize importable."""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))

DATA = os.path.join(REPO, "tests", "python", "data")
STATIC_CASES = os.path.join(REPO, "tests", "python", "static_cases")
HACKS = os.path.join(REPO, "tests", "gpu", "hacks")
