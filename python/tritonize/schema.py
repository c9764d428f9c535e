"""The JSON-lines record: one per (problem, sample). docs/HARNESS.md documents every field; keep the two in step
(tests/python/test_schema.py checks that they are).

A record is made by the worker, section by section, and finished by `finalize`, which derives `status`,
`correct` and `reasons` from the sections. `validate` checks a record against SCHEMA.
"""
from __future__ import annotations

import datetime

SCHEMA_VERSION = 1

# What went wrong, in the order the job got there; each is both an error kind and a status.
ERROR_KINDS = ("missing_generated", "convert_error", "load_error", "timeout", "crash", "illegal_memory_access",
               "out_of_memory", "runtime_error", "harness_error")

# status, worst first; "pass" and "suspect" are the correct ones.
STATUSES = ERROR_KINDS + ("incorrect", "static_fail", "suspect", "pass")
CORRECT_STATUSES = ("pass", "suspect")

# Reason codes besides the error kinds and "static:<rule>" (rules: static_check.RULES).
REASONS = {
    "mismatch": "values outside tolerance on at least one trial",
    "shape_mismatch": "wrong number of outputs or wrong shape",
    "dtype_mismatch": "output dtype differs from the reference's",
    "wrong_device": "output on another device than the reference's",
    "unwritten_output": "output elements that no kernel wrote (they kept the poison pattern)",
    "aliased_output": "output shares storage with an input (the reference's does not)",
    "input_modified": "ModelNew changed an input (the reference does not)",
    "unsynchronized_work": "the timed stream did not wait for the work (wall time far above event time)",
    "faster_than_floor": "faster than the speed-of-light floor",
}

_NUM = (int, float)
_OPT_NUM = (int, float, type(None))
_OPT_STR = (str, type(None))
_OPT_INT = (int, type(None))

_STATS = {"median_ms": _NUM, "mean_ms": _NUM, "min_ms": _NUM, "max_ms": _NUM, "std_ms": _NUM, "n": int}

# field -> accepted types, or a nested dict for a section (then: dict or None).
SCHEMA = {
    "schema": int,
    "problem": str,
    "group": str,
    "level": _OPT_INT,
    "sample": str,
    "ref": str,
    "gen": str,
    "gen_sha256": _OPT_STR,
    "dtype": str,
    "device": _OPT_STR,
    "gpu": _OPT_INT,
    "status": str,
    "correct": bool,
    "reasons": list,
    "stage": str,
    "seconds": _NUM,
    "time": str,
    "log": _OPT_STR,
    "error": {"kind": str, "message": str},
    "convert": {"ran": bool, "ok": bool, "seconds": _OPT_NUM, "stderr": str},
    "static": {"ok": bool, "violations": list, "launches": int, "kernels": list, "kernelbench_ok": bool,
               "kernelbench_violations": list},
    "correctness": {"ok": bool, "trials": int, "trials_passed": int, "atol": _NUM, "rtol": _NUM,
                    "max_abs_diff": _OPT_NUM, "mean_abs_diff": _OPT_NUM, "passes_1e2": bool, "poisoned": bool,
                    "unwritten_elements": int, "aliased_output": bool, "input_modified": bool,
                    "first_call_seconds": _NUM, "per_trial": list},
    "timing": {"trials": int, "warmup": int, "repeats": int, "clock": str, "ours": _STATS, "eager": _STATS,
               "compile": _STATS, "compile_seconds": _OPT_NUM, "ours_wall_median_ms": _OPT_NUM,
               "eager_wall_median_ms": _OPT_NUM,
               "ours_repeat_medians_ms": list, "speedup_eager": _OPT_NUM, "speedup_compile": _OPT_NUM,
               "unsynchronized": bool, "compile_error": _OPT_STR},
    "floor": {"bytes": int, "bytes_in": int, "bytes_out": int, "flops": int, "bandwidth": _NUM, "peak_flops": _NUM,
              "peak_kind": str, "calibrated": bool, "floor_ms": _NUM, "strict_floor_ms": _NUM, "bound": str,
              "achieved_fraction": _OPT_NUM, "suspect": bool},
    "harness": {"python": str, "torch": _OPT_STR, "triton": _OPT_STR},
}

PER_TRIAL = {"seed": int, "ok": bool, "ok_1e2": bool, "max_abs_diff": _OPT_NUM, "mean_abs_diff": _OPT_NUM,
             "unwritten": int, "nonfinite": int, "aliased_output": bool, "input_modified": bool,
             "problem": _OPT_STR, "poisoned_bytes": int}
VIOLATION = {"rule": str, "line": int, "message": str}


def new_record(problem: str, group: str, level: int | None, sample: str, ref: str, gen: str, dtype: str) -> dict:
    """A record with every field present: sections None until a stage fills them."""
    import platform

    return {
        "schema": SCHEMA_VERSION, "problem": problem, "group": group, "level": level, "sample": sample,
        "ref": ref, "gen": gen, "gen_sha256": None, "dtype": dtype, "device": None, "gpu": None,
        "status": "harness_error", "correct": False, "reasons": [], "stage": "start", "seconds": 0.0,
        "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), "log": None,
        "error": None, "convert": None, "static": None, "correctness": None, "timing": None, "floor": None,
        "harness": {"python": platform.python_version(), "torch": None, "triton": None},
    }


def set_error(record: dict, kind: str, message: str) -> None:
    assert kind in ERROR_KINDS, kind
    record["error"] = {"kind": kind, "message": message[-4000:]}


def finalize(record: dict) -> dict:
    """Derive status, correct and reasons from the sections."""
    reasons: list[str] = []
    error = record.get("error")
    if error:
        reasons.append(error["kind"])
    correctness = record.get("correctness")
    if correctness is not None:
        reasons += correctness_reasons(correctness)
    static = record.get("static")
    if static is not None:
        for v in static["violations"]:
            code = "static:" + v["rule"]
            if code not in reasons:
                reasons.append(code)
    timing, floor = record.get("timing"), record.get("floor")
    if timing is not None and timing["unsynchronized"]:
        reasons.append("unsynchronized_work")
    if floor is not None and floor["suspect"]:
        reasons.append("faster_than_floor")

    if error:
        status = error["kind"]
    elif correctness is None or not correctness["ok"]:
        status = "incorrect" if correctness is not None else "harness_error"
    elif static is None or not static["ok"]:
        status = "static_fail"
    elif "unsynchronized_work" in reasons or "faster_than_floor" in reasons:
        status = "suspect"
    else:
        status = "pass"
    record["reasons"] = reasons
    record["status"] = status
    record["correct"] = status in CORRECT_STATUSES
    return record


def correctness_reasons(section: dict) -> list[str]:
    """The reason codes for a failed correctness section, most specific first."""
    reasons = []
    problems = [t["problem"] for t in section["per_trial"] if t["problem"]]
    if any(p.startswith("shape") or "outputs, expected" in p or p.startswith("output is") for p in problems):
        reasons.append("shape_mismatch")
    if any(p.startswith("dtype") for p in problems):
        reasons.append("dtype_mismatch")
    if any(p.startswith("device") for p in problems):
        reasons.append("wrong_device")
    if section["unwritten_elements"] > 0:
        reasons.append("unwritten_output")
    if section["aliased_output"]:
        reasons.append("aliased_output")
    if section["input_modified"]:
        reasons.append("input_modified")
    # a failed trial with none of the above is a plain numerical mismatch
    if any(not t["ok"] and not (t["problem"] or t["unwritten"] or t["aliased_output"] or t["input_modified"])
           for t in section["per_trial"]):
        reasons.append("mismatch")
    return reasons


def validate(record: dict) -> list[str]:
    """Problems with a record's shape (empty: it matches SCHEMA)."""
    errors = _check_fields(record, SCHEMA, "")
    if record.get("status") not in STATUSES:
        errors.append(f"status: unknown value {record.get('status')!r}")
    if record.get("error") and record["error"].get("kind") not in ERROR_KINDS:
        errors.append(f"error.kind: unknown value {record['error'].get('kind')!r}")
    for i, trial in enumerate((record.get("correctness") or {}).get("per_trial", [])):
        errors += _check_fields(trial, PER_TRIAL, f"correctness.per_trial[{i}].")
    for i, violation in enumerate((record.get("static") or {}).get("violations", [])):
        errors += _check_fields(violation, VIOLATION, f"static.violations[{i}].")
    for reason in record.get("reasons", []):
        if not (reason in REASONS or reason in ERROR_KINDS or reason.startswith("static:")):
            errors.append(f"reasons: unknown code {reason!r}")
    return errors


def _check_fields(value: dict, spec: dict, prefix: str) -> list[str]:
    errors = []
    if not isinstance(value, dict):
        return [f"{prefix or 'record'}: expected an object"]
    for name, kind in spec.items():
        if name not in value:
            errors.append(f"{prefix}{name}: missing")
            continue
        item = value[name]
        if isinstance(kind, dict):
            if item is not None:
                errors += _check_fields(item, kind, f"{prefix}{name}.")
        elif isinstance(item, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            errors.append(f"{prefix}{name}: bool where {kind} expected")
        elif not isinstance(item, kind):
            errors.append(f"{prefix}{name}: {type(item).__name__} where {kind} expected")
    for name in value:
        if name not in spec:
            errors.append(f"{prefix}{name}: not in the schema")
    return errors


def field_names() -> list[str]:
    """Every documented field as a dotted path ("timing.ours.median_ms")."""
    names = []

    def walk(spec: dict, prefix: str) -> None:
        for name, kind in spec.items():
            names.append(prefix + name)
            if isinstance(kind, dict):
                walk(kind, prefix + name + ".")

    walk(SCHEMA, "")
    walk(PER_TRIAL, "correctness.per_trial[].")
    walk(VIOLATION, "static.violations[].")
    return names
