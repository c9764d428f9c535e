#!/usr/bin/env python3
"""How many bytes the launches of generated files can move, next to the bytes the problem must move, without a GPU.

    .venv/bin/python scripts/traffic_census.py tests/corpus/view_flatten_scale.py [...] [--json OUT.json] [--over 1.2]

Each problem is converted (build/tritonize, or $TRITONIZE_BIN) and ModelNew's forward called on meta tensors with
`_launch` replaced by a recorder (scripts/ptx_census.py's record_launches), so nothing runs. For every launch it
counts each tensor argument once (its whole size: an upper bound on what one pass reads or writes, and a lower
bound where a kernel reads its input twice), and sums them over the forward; the problem's own bytes are its
inputs and outputs once (python/tritonize/floor.py's rule). A ratio well above 1 is structural: a buffer written
by one kernel and read by the next, or an input read by two kernels, which no tuning of either kernel removes.
A ratio of 1.0 says nothing about how well the kernels use the bandwidth.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_census  # noqa: E402  (its loader, recorder and TRITONIZE path)


def tensors_bytes(values, seen):
    if isinstance(values, torch.Tensor):
        if id(values) in seen:
            return 0
        seen.add(id(values))
        return values.numel() * values.element_size()
    if isinstance(values, (list, tuple)):
        return sum(tensors_bytes(v, seen) for v in values)
    return 0


def traffic(problem_path, generated_path):
    """(problem bytes, [(kernel name, bytes of its tensor arguments)])."""
    ref = ptx_census.load(problem_path, "traffic_ref")
    launches = []
    gen = ptx_census.load(generated_path, "traffic_gen")
    gen._launch = lambda kernel, grid, args, options: launches.append((kernel, args))
    if hasattr(gen, "_persistent_programs"):
        gen._persistent_programs = lambda tiles, per_sm: min(tiles, per_sm * ptx_census.SMS)
    model = gen.ModelNew(*ref.get_init_inputs())
    with torch.device("meta"):
        inputs = ref.get_inputs()
    model.to("meta")
    with torch.no_grad():
        outputs = model(*inputs)
    problem_bytes = tensors_bytes(inputs, set()) + tensors_bytes(outputs, set())
    per_launch = [(getattr(kernel, "__name__", str(kernel)), tensors_bytes(list(args.values()), set()))
                  for kernel, args in launches]
    return problem_bytes, per_launch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("problems", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--over", type=float, default=0.0, help="print only problems whose ratio exceeds this")
    opts = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for problem in opts.problems:
            name = os.path.splitext(os.path.basename(problem))[0]
            generated = os.path.join(tmp, name + ".py")
            if subprocess.run([ptx_census.TRITONIZE, "convert", problem, "-o", generated],
                              capture_output=True).returncode:
                print(f"{name}: not converted", file=sys.stderr)
                continue
            try:
                problem_bytes, per_launch = traffic(problem, generated)
            except Exception as e:  # a launcher this census cannot drive on meta tensors
                print(f"{name}: skipped ({type(e).__name__}: {e})", file=sys.stderr)
                continue
            moved = sum(b for _, b in per_launch)
            ratio = moved / problem_bytes if problem_bytes else 0.0
            results.append({"problem": name, "problem_bytes": problem_bytes, "launch_bytes": moved,
                            "ratio": ratio, "launches": per_launch})
            if ratio > opts.over:
                kernels = ", ".join(f"{k} {b / problem_bytes:.2f}" for k, b in per_launch)
                print(f"{name:44s} {len(per_launch)} launches  {ratio:5.2f}x the problem's bytes  ({kernels})",
                      flush=True)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
