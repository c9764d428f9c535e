"""scripts/stale_records.py: the corpus problems whose generated file today is not the one a record measured."""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from harness_paths import REPO

TRITONIZE = os.environ.get("TRITONIZE_BIN", os.path.join(REPO, "build", "tritonize"))
PROBLEM = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x * {k}


def get_inputs():
    return [torch.randn(8, 8)]


def get_init_inputs():
    return []
'''


def test_stale_records(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, k in [("same", 2.0), ("changed", 3.0), ("unrecorded", 4.0), ("old_record", 5.0)]:
        (corpus / f"{name}.py").write_text(PROBLEM.format(k=k))
    gen = tmp_path / "same.py"
    subprocess.run([TRITONIZE, "convert", str(corpus / "same.py"), "-o", str(gen)], check=True)
    digest = hashlib.sha256(gen.read_bytes()).hexdigest()
    records = [{"ref": f"tests/corpus/{name}.py", "sample": "", "gen_sha256": h}
               for name, h in [("same", digest), ("changed", digest), ("old_record", None)]]
    records.append({"ref": "tests/corpus/same.py", "sample": "new", "gen_sha256": None})  # (an A/B sample: ignored)
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "stale_records.py"), str(results),
                          "--tritonize", TRITONIZE, "--corpus", str(corpus)],
                         capture_output=True, text=True, check=True).stdout.split()
    assert [Path(p).stem for p in out] == ["changed", "old_record", "unrecorded"]
