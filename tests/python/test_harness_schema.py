"""The JSON record: its shape, how status and reasons are derived, and that docs/HARNESS.md documents it."""
import os
import re

import pytest
from harness_paths import REPO

from tritonize import schema


def finished_record(**sections):
    record = schema.new_record("level1/relu", "level1", 1, "", "ref.py", "gen.py", "fp32")
    record["convert"] = {"ran": False, "ok": True, "seconds": None, "stderr": ""}
    record.update(sections)
    return schema.finalize(record)


STATIC_OK = {"ok": True, "violations": [], "launches": 1, "kernels": ["k"], "kernelbench_ok": True,
             "kernelbench_violations": []}


def correctness(ok=True, **overrides):
    trial = {"seed": 1, "ok": ok, "ok_1e2": ok, "max_abs_diff": 0.0, "mean_abs_diff": 0.0, "unwritten": 0,
             "nonfinite": 0, "aliased_output": False, "input_modified": False, "problem": None, "poisoned_bytes": 0}
    trial.update({k: v for k, v in overrides.items() if k in trial})
    section = {"ok": ok, "trials": 1, "trials_passed": int(ok), "atol": 1e-4, "rtol": 1e-4, "max_abs_diff": 0.0,
               "mean_abs_diff": 0.0, "passes_1e2": ok, "poisoned": True, "unwritten_elements": trial["unwritten"],
               "aliased_output": trial["aliased_output"], "input_modified": trial["input_modified"],
               "first_call_seconds": 0.1, "per_trial": [trial]}
    return section


def stats(ms):
    return {"median_ms": ms, "mean_ms": ms, "min_ms": ms, "max_ms": ms, "std_ms": 0.0, "n": 3}


def timing(unsynchronized=False):
    return {"trials": 3, "warmup": 1, "repeats": 1, "clock": "cuda_event", "ours": stats(1.0), "eager": stats(2.0),
            "compile": None, "compile_seconds": None, "ours_wall_median_ms": 1.1, "eager_wall_median_ms": 2.1,
            "ours_repeat_medians_ms": [1.0],
            "speedup_eager": 2.0, "speedup_compile": None, "unsynchronized": unsynchronized, "compile_error": None}


def floor(suspect=False):
    return {"bytes": 8, "bytes_in": 4, "bytes_out": 4, "flops": 0, "bandwidth": 1e12, "peak_flops": 1e14,
            "peak_kind": "tf32", "calibrated": False, "floor_ms": 0.5, "strict_floor_ms": 0.5, "bound": "memory",
            "achieved_fraction": 0.5, "suspect": suspect}


def test_pass():
    r = finished_record(static=STATIC_OK, correctness=correctness(), timing=timing(), floor=floor())
    assert (r["status"], r["correct"], r["reasons"]) == ("pass", True, [])
    assert schema.validate(r) == []


def test_static_failure_is_not_correct_even_when_the_numbers_are_right():
    bad = dict(STATIC_OK, ok=False, violations=[{"rule": "try_except", "line": 3, "message": "m"}])
    r = finished_record(static=bad, correctness=correctness())
    assert (r["status"], r["correct"], r["reasons"]) == ("static_fail", False, ["static:try_except"])
    assert schema.validate(r) == []


def test_suspect_is_correct_but_flagged():
    r = finished_record(static=STATIC_OK, correctness=correctness(), timing=timing(True), floor=floor(True))
    assert r["status"] == "suspect" and r["correct"]
    assert r["reasons"] == ["unsynchronized_work", "faster_than_floor"]


def test_correctness_reasons():
    r = finished_record(static=STATIC_OK, correctness=correctness(False, unwritten=10))
    assert r["status"] == "incorrect" and r["reasons"] == ["unwritten_output"]
    r = finished_record(static=STATIC_OK, correctness=correctness(False))
    assert r["reasons"] == ["mismatch"]
    r = finished_record(static=STATIC_OK, correctness=correctness(False, aliased_output=True, input_modified=True))
    assert r["reasons"] == ["aliased_output", "input_modified"]
    r = finished_record(static=STATIC_OK, correctness=correctness(False, problem="shape (2,), expected (3,)"))
    assert r["reasons"] == ["shape_mismatch"]


def test_error_comes_first():
    record = schema.new_record("p", "g", None, "", "r", "g", "fp32")
    record["static"] = STATIC_OK
    schema.set_error(record, "timeout", "no result after 10 s")
    schema.finalize(record)
    assert (record["status"], record["reasons"], record["correct"]) == ("timeout", ["timeout"], False)
    assert schema.validate(record) == []


def test_validate_finds_problems():
    r = finished_record(static=STATIC_OK, correctness=correctness())
    del r["seconds"]
    r["extra"] = 1
    r["correct"] = "yes"
    r["reasons"] = ["made_up"]
    errors = schema.validate(r)
    assert any(e.startswith("seconds: missing") for e in errors)
    assert any(e.startswith("extra: not in the schema") for e in errors)
    assert any(e.startswith("correct:") for e in errors)
    assert any("made_up" in e for e in errors)


def documented_fields():
    text = open(os.path.join(REPO, "docs", "HARNESS.md"), encoding="utf-8").read()
    section = text.split("## Record fields", 1)[1].split("\n## ", 1)[0]
    return [m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|", section, re.MULTILINE)]


def test_harness_md_documents_every_field():
    documented = documented_fields()
    assert len(documented) == len(set(documented))
    assert set(documented) == set(schema.field_names())


def test_harness_md_documents_every_reason_and_status():
    text = open(os.path.join(REPO, "docs", "HARNESS.md"), encoding="utf-8").read()
    for code in list(schema.REASONS) + list(schema.STATUSES):
        assert f"`{code}`" in text, code


@pytest.mark.parametrize("kind", schema.ERROR_KINDS)
def test_every_error_kind_is_a_status(kind):
    assert kind in schema.STATUSES
