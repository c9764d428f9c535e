"""scripts/merge_records.py: per problem, the newest record of the file the compiler writes today (one with a
torch.compile timing before one without), never a record of another file or an A/B sample."""
import hashlib
import json
import os
import subprocess
import sys

from harness_paths import REPO
from test_stale_records import PROBLEM, TRITONIZE


def test_merge_records(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    digests = {}
    for name, k in [("a", 2.0), ("b", 3.0), ("unrecorded", 4.0)]:
        (corpus / f"{name}.py").write_text(PROBLEM.format(k=k))
        gen = tmp_path / f"{name}_gen.py"
        subprocess.run([TRITONIZE, "convert", str(corpus / f"{name}.py"), "-o", str(gen)], check=True)
        digests[name] = hashlib.sha256(gen.read_bytes()).hexdigest()

    def record(name, tag, time, digest=None, compile_ms=None, sample=""):
        timing = {"compile": {"median_ms": compile_ms} if compile_ms else None}
        return {"ref": f"tests/corpus/{name}.py", "sample": sample, "gen_sha256": digest or digests[name],
                "time": time, "timing": timing, "tag": tag}

    old = [record("a", "a-old", "2026-12-01T00:00:00"), record("b", "b-compiled", "2026-12-01T00:00:00", compile_ms=1)]
    new = [record("a", "a-new", "2026-12-02T00:00:00"),
           record("a", "a-other-file", "2026-12-03T00:00:00", digest="0" * 64),
           record("a", "a-sample", "2026-12-03T00:00:00", sample="new"),
           record("b", "b-no-compile", "2026-12-02T00:00:00")]
    files = []
    for i, records in enumerate([old, new]):
        files.append(tmp_path / f"r{i}.jsonl")
        files[-1].write_text("".join(json.dumps(r) + "\n" for r in records))
    proc = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "merge_records.py"), *map(str, files),
                           "--tritonize", TRITONIZE, "--corpus", str(corpus)],
                          capture_output=True, text=True, check=True)
    assert [json.loads(line)["tag"] for line in proc.stdout.splitlines()] == ["a-new", "b-compiled"]
    assert "have none: unrecorded" in proc.stderr
