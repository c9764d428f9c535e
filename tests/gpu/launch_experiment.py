"""What a launch costs on the CPU: generated files' `_launch` (compiled kernel called directly after the first
launch of a signature) against Triton's own `kernel[grid](...)` on every call (a measurement for the device tool).

For each corpus problem named, converted by the tritonize binary given: ModelNew.forward is called
  - back to back, N calls then one synchronize: wall time per call, which is the CPU's time per forward when that
    exceeds the GPU's (the launch-bound regime of short kernels);
  - one call at a time as the harness times it (L2 flushed, events around the call): median of TRIALS;
each first with the file's `_launch` and then with `_launch` replaced by Triton's own launch, interleaved.

    python3 tests/gpu/launch_experiment.py build/tritonize act_softsign norm_rms_norm_functional_bf16 ... \
        [--json out.jsonl]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
from tritonize.problem import load_module  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
BACK_TO_BACK = 300
TRIALS = 60


def triton_launch(kernel, grid, args, options):
    kernel[grid](**args, **options)  # what the generated _launch does on a signature's first launch


def back_to_back(forward, inputs):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(BACK_TO_BACK):
        forward(*inputs)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / BACK_TO_BACK * 1e3


def one_call(forward, inputs, flush):
    flush.zero_()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    forward(*inputs)
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end)


def measure(tritonize, problem, flush):
    ref = os.path.join(ROOT, "tests", "corpus", problem + ".py")
    with tempfile.TemporaryDirectory() as tmp:
        gen = os.path.join(tmp, problem + "_gen.py")
        subprocess.run([tritonize, "convert", ref, "-o", gen], check=True)
        ref_mod = load_module(ref, problem + "_ref")
        gen_mod = load_module(gen, problem + "_gen")
    torch.manual_seed(0)
    model = gen_mod.ModelNew(*ref_mod.get_init_inputs()).cuda()
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in ref_mod.get_inputs()]
    fast = gen_mod._launch
    variants = {"fast": fast, "triton": triton_launch}
    result = {"problem": problem}
    with torch.no_grad():
        for name, launch in variants.items():
            gen_mod._launch = launch
            for _ in range(5):
                model(*inputs)
        for name in variants:
            result[name] = {"back_to_back_ms": [], "one_call_ms": []}
        for _ in range(3):
            for name, launch in variants.items():
                gen_mod._launch = launch
                result[name]["back_to_back_ms"].append(back_to_back(model, inputs))
        for _ in range(TRIALS):
            for name, launch in variants.items():
                gen_mod._launch = launch
                result[name]["one_call_ms"].append(one_call(model, inputs, flush))
    gen_mod._launch = fast
    for name in variants:
        r = result[name]
        r["back_to_back_ms"] = min(r["back_to_back_ms"])
        r["one_call_median_ms"] = statistics.median(r.pop("one_call_ms"))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tritonize")
    parser.add_argument("problems", nargs="+")
    parser.add_argument("--json")
    args = parser.parse_args()
    flush = torch.empty(256 * 1024 * 1024 // 4, device="cuda")
    rows = []
    print(f"{'problem':40s} {'b2b fast':>9s} {'b2b triton':>10s} {'call fast':>9s} {'call triton':>11s}  (ms)")
    for problem in args.problems:
        r = measure(args.tritonize, problem, flush)
        rows.append(r)
        print(f"{problem:40s} {r['fast']['back_to_back_ms']:9.4f} {r['triton']['back_to_back_ms']:10.4f} "
              f"{r['fast']['one_call_median_ms']:9.4f} {r['triton']['one_call_median_ms']:11.4f}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
